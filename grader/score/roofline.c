/* roofline.c - the roofline's ceilings, its points and the sentence the
 * terminal prints (roofline.h). */
#include "score/roofline.h"
#include "course/lab.h"
#include "kinds/kind.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SHARED_BYTES_PER_CLOCK 128.0 /* an SM's shared memory: 32 banks of 4 bytes a clock */

int roofline_fp32_lanes(int cc_major, int cc_minor)
{
    switch (cc_major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return cc_minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return cc_minor == 0 ? 64 : 128;
    default: return cc_major >= 9 && cc_major < 20 ? 128 : 0;
    }
}

static void ceilings(const perf_result_t *r, roofline_ceilings_t *c)
{
    double clock_hz = r->sm_clock_mhz * 1e6;
    c->peak_gflops = r->sms * roofline_fp32_lanes(r->cc_major, r->cc_minor) * 2.0 * clock_hz / 1e9;
    c->shared_gbs = r->sms * SHARED_BYTES_PER_CLOCK * clock_hz / 1e9;
    c->dram_gbs = r->bandwidth_gbs;
}

/* The lowest roof at a point's intensities, and which it is. */
static void place(const roofline_ceilings_t *c, roofline_point_t *p)
{
    p->allowed_gflops = p->intensity * c->dram_gbs;
    p->bound = ROOF_DRAM;
    if (p->shared_intensity > 0 && c->shared_gbs > 0 && p->shared_intensity * c->shared_gbs < p->allowed_gflops) {
        p->allowed_gflops = p->shared_intensity * c->shared_gbs;
        p->bound = ROOF_SHARED;
    }
    if (c->peak_gflops > 0 && c->peak_gflops < p->allowed_gflops) {
        p->allowed_gflops = c->peak_gflops;
        p->bound = ROOF_FP32;
    }
}

/* The largest shape (by its arithmetic) whose student timing is usable. */
static const perf_shape_t *largest_shape(const perf_result_t *r, const lab_t *lab, double *flop,
                                         double *bytes)
{
    const perf_shape_t *best = NULL;
    for (int i = 0; i < r->nshapes; i++) {
        double f, b;
        const perf_impl_t *st = perf_impl(&r->shapes[i], "student");
        if (!st || !(st->q1_ms > 0 || st->median_ms > 0) || st->wrong > 0 ||
            lab->kind->shape_work(lab, r->shapes[i].shape, &f, &b) != 0 || !(f > 0) || !(b > 0))
            continue;
        if (!best || f > *flop)
            best = &r->shapes[i], *flop = f, *bytes = b;
    }
    return best;
}

/* The FLOP/s an implementation reached on the shape (its first quartile's, as its rate). */
static double reached_gflops(const perf_impl_t *im, double flop)
{
    double ms = im->q1_ms > 0 ? im->q1_ms : im->median_ms;
    return ms > 0 ? flop / (ms * 1e6) : 0;
}

static int add_point(roofline_t *rl, const perf_shape_t *s, const char *name, double flop,
                     const roofline_traffic_t *t)
{
    const perf_impl_t *im = perf_impl(s, name);
    if (!im || im->wrong > 0 || rl->npoints == ROOFLINE_MAX_POINTS)
        return -1;
    roofline_point_t *p = &rl->points[rl->npoints];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->gflops = reached_gflops(im, flop);
    if (t) {
        if (!(t->flop > 0) || !(t->global_bytes > 0))
            return -1;
        p->intensity = t->flop / t->global_bytes;
        p->shared_intensity = t->shared_load_bytes > 0 ? t->flop / t->shared_load_bytes : 0;
    } else {
        p->intensity = rl->shape_intensity;
        p->compulsory = 1;
    }
    if (!(p->gflops > 0))
        return -1;
    place(&rl->roof, p);
    rl->npoints++;
    return 0;
}

int roofline_build(const perf_result_t *r, const lab_t *lab, const roofline_traffic_t *student,
                   const roofline_traffic_t *reference, roofline_t *out)
{
    memset(out, 0, sizeof *out);
    double flop = 0, bytes = 0;
    const perf_shape_t *s = lab->kind->shape_work && student ? largest_shape(r, lab, &flop, &bytes) : NULL;
    if (!s || !(r->bandwidth_gbs > 0))
        return -1;
    snprintf(out->device, sizeof out->device, "%s", r->device);
    snprintf(out->shape, sizeof out->shape, "%s", s->shape);
    out->shape_intensity = flop / bytes;
    out->reuse_example = lab->kind->reuse_example;
    ceilings(r, &out->roof);
    if (add_point(out, s, "student", flop, student) != 0)
        return -1;
    if (reference)
        add_point(out, s, "reference", flop, reference);
    add_point(out, s, "cublas", flop, NULL);
    return 0;
}

const char *roofline_bound_text(roofline_bound_t b)
{
    switch (b) {
    case ROOF_FP32: return "bound by the FP32 peak";
    case ROOF_DRAM: return "bound by global-memory traffic";
    case ROOF_SHARED: return "bound by shared-memory loads";
    default: return "";
    }
}

/* "7.8 TFLOP/s", "812 GFLOP/s" */
static void rate(strbuf_t *out, double gflops)
{
    if (gflops >= 1000)
        sb_appendf(out, "%.1f TFLOP/s", gflops / 1000);
    else
        sb_appendf(out, "%.0f GFLOP/s", gflops);
}

/* What would raise the roof that bounds p. */
static void advice(const roofline_t *rl, const roofline_point_t *p, strbuf_t *out)
{
    double extra = rl->shape_intensity / p->intensity;
    switch (p->bound) {
    case ROOF_SHARED:
        sb_appendf(out, "  each float loaded from shared memory serves %.1f FLOP: kept in registers "
                        "and reused (a thread computing several outputs: register tiling) it serves "
                        "more, and this roof rises\n", p->shared_intensity * 4);
        break;
    case ROOF_DRAM:
        if (extra > 1.5)
            sb_appendf(out, "  its kernels load and store %.0f times the bytes the shape needs (%.1f FLOP "
                            "per byte moved once): each value reused from shared memory or registers "
                            "raises FLOP per byte, and this roof with it%s%s%s\n", extra, rl->shape_intensity,
                       rl->reuse_example ? " (" : "", rl->reuse_example ? rl->reuse_example : "",
                       rl->reuse_example ? ")" : "");
        else
            sb_append(out, "  it moves little more than the shape needs: what is left is reaching the "
                           "bandwidth (coalesced, wide loads; enough blocks in flight)\n");
        break;
    case ROOF_FP32:
        sb_append(out, "  it is under the FP32 peak's roof: going further means fewer instructions "
                       "per FLOP (fused multiply-adds, fewer index computations)\n");
        break;
    default:
        break;
    }
}

void roofline_sentence(const roofline_t *rl, strbuf_t *out)
{
    if (rl->npoints == 0)
        return;
    const roofline_point_t *p = &rl->points[0];
    sb_append(out, "roofline: ");
    rate(out, p->gflops);
    sb_appendf(out, " at %.2f FLOP per byte of global memory (%s): ", p->intensity, rl->shape);
    double frac = p->gflops / p->allowed_gflops;
    if (frac > 1.05 && p->bound != ROOF_DRAM) { /* above a roof no cache lifts: the model is off */
        sb_appendf(out, "%.2f times the ", frac);
        rate(out, p->allowed_gflops);
        sb_appendf(out, " its intensity allows (%s): the traffic measured on the datasets is not this shape's\n",
                   roofline_bound_text(p->bound));
    } else if (p->bound == ROOF_DRAM && frac > 1.05) {
        sb_appendf(out, "%.1f times what DRAM's bandwidth allows for that traffic (", frac);
        rate(out, p->allowed_gflops);
        sb_append(out, "): the L1 and L2 caches served part of its loads, reuse the hardware found for "
                       "it; in shared memory that reuse is the kernel's own\n");
    } else {
        if (frac > 1.0) /* within a few percent of the roof: where the model's numbers are only so exact */
            sb_append(out, "at the ");
        else
            sb_appendf(out, "%.0f%% of the ", 100 * frac);
        rate(out, p->allowed_gflops);
        sb_appendf(out, " that intensity allows; %s", roofline_bound_text(p->bound));
        if (p->bound == ROOF_SHARED)
            sb_appendf(out, " (%.2f B a FLOP at %.1f TB/s)", 1 / p->shared_intensity, rl->roof.shared_gbs / 1000);
        sb_append(out, "\n");
        advice(rl, p, out);
    }
    sb_appendf(out, "  the device's roofs: FP32 ");
    if (rl->roof.peak_gflops > 0)
        rate(out, rl->roof.peak_gflops);
    else
        sb_append(out, "unknown (compute capability not reported)");
    sb_appendf(out, ", DRAM %.0f GB/s, shared memory %.1f TB/s\n", rl->roof.dram_gbs, rl->roof.shared_gbs / 1000);
}

/* ---- JSON ---------------------------------------------------------------------------- */

static const char *const bound_names[] = {"none", "fp32", "dram", "shared"};

static double round4(double v) { return round(v * 1e4) / 1e4; }

json_object *roofline_to_json(const roofline_t *rl)
{
    json_object *o = json_object_new_object(), *pts = json_object_new_array();
    json_object_object_add(o, "device", json_object_new_string(rl->device));
    json_object_object_add(o, "shape", json_object_new_string(rl->shape));
    json_object_object_add(o, "shape_flop_per_byte", json_object_new_double(round4(rl->shape_intensity)));
    json_object_object_add(o, "peak_gflops", json_object_new_double(round4(rl->roof.peak_gflops)));
    json_object_object_add(o, "dram_gbs", json_object_new_double(round4(rl->roof.dram_gbs)));
    json_object_object_add(o, "shared_gbs", json_object_new_double(round4(rl->roof.shared_gbs)));
    for (int i = 0; i < rl->npoints; i++) {
        const roofline_point_t *p = &rl->points[i];
        json_object *po = json_object_new_object();
        json_object_object_add(po, "name", json_object_new_string(p->name));
        json_object_object_add(po, "gflops", json_object_new_double(round4(p->gflops)));
        json_object_object_add(po, "flop_per_byte", json_object_new_double(round4(p->intensity)));
        json_object_object_add(po, "flop_per_shared_byte", json_object_new_double(round4(p->shared_intensity)));
        json_object_object_add(po, "traffic", json_object_new_string(p->compulsory ? "compulsory" : "measured"));
        json_object_object_add(po, "allowed_gflops", json_object_new_double(round4(p->allowed_gflops)));
        json_object_object_add(po, "bound", json_object_new_string(bound_names[p->bound]));
        json_object_array_add(pts, po);
    }
    json_object_object_add(o, "points", pts);
    return o;
}

static double num(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

static const char *text(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v) : "";
}

int roofline_from_json(json_object *o, roofline_t *rl)
{
    memset(rl, 0, sizeof *rl);
    json_object *pts;
    if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "points", &pts) ||
        !json_object_is_type(pts, json_type_array))
        return -1;
    snprintf(rl->device, sizeof rl->device, "%s", text(o, "device"));
    snprintf(rl->shape, sizeof rl->shape, "%s", text(o, "shape"));
    rl->shape_intensity = num(o, "shape_flop_per_byte");
    rl->roof.peak_gflops = num(o, "peak_gflops");
    rl->roof.dram_gbs = num(o, "dram_gbs");
    rl->roof.shared_gbs = num(o, "shared_gbs");
    for (size_t i = 0; i < json_object_array_length(pts) && rl->npoints < ROOFLINE_MAX_POINTS; i++) {
        json_object *po = json_object_array_get_idx(pts, i);
        roofline_point_t *p = &rl->points[rl->npoints];
        if (!json_object_is_type(po, json_type_object))
            return -1;
        snprintf(p->name, sizeof p->name, "%s", text(po, "name"));
        p->gflops = num(po, "gflops");
        p->intensity = num(po, "flop_per_byte");
        p->shared_intensity = num(po, "flop_per_shared_byte");
        p->compulsory = strcmp(text(po, "traffic"), "compulsory") == 0;
        p->allowed_gflops = num(po, "allowed_gflops");
        for (int b = 0; b < 4; b++)
            if (strcmp(text(po, "bound"), bound_names[b]) == 0)
                p->bound = (roofline_bound_t)b;
        if (!(p->gflops > 0) || !(p->intensity > 0))
            return -1;
        rl->npoints++;
    }
    return rl->npoints > 0 && rl->roof.dram_gbs > 0 ? 0 : -1;
}

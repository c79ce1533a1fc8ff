/* perf_library.c - an array lab's library baseline quoted in its
 * performance test (perf_library.h): for each timed shape, the lab's
 * generator makes a dataset, and the library timer (the lab's baseline
 * alone: labs/kinds/array/library_timer.cu ... library) checks it and times
 * it on the GPU, alone there. Never scored, never the student's fault: what
 * cannot be timed is said and left out. */
#include "pipeline/perf_library.h"
#include "build/build.h"
#include "build/backend.h"
#include "build/harness_flags.h"
#include "dataset/labgen.h"
#include "run/gpuqueue.h"
#include "run/runner.h"

#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIBRARY_REPS "15"

/* The timer's line of the implementation "library" in text, into im (and
 * the line itself into line): 0, or -1. */
static int parse_timing(const char *text, perf_impl_t *im, char *line, size_t len)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        size_t n = strcspn(p, "\n");
        if (*p != '{' || n >= len)
            continue;
        snprintf(line, len, "%.*s", (int)n, p);
        json_object *o = json_tokener_parse(line), *v;
        int ok = o && json_object_object_get_ex(o, "impl", &v) && strcmp(json_object_get_string(v), "library") == 0;
        if (ok) {
            memset(im, 0, sizeof *im);
            snprintf(im->name, sizeof im->name, "library");
            ok = json_object_object_get_ex(o, "median_ms", &v) && (im->median_ms = json_object_get_double(v)) > 0 &&
                 json_object_object_get_ex(o, "gbs", &v) && (im->rate = json_object_get_double(v)) > 0;
            im->q1_ms = im->mean_ms = im->median_ms;
            im->reps = atoi(LIBRARY_REPS);
            if (json_object_object_get_ex(o, "wrong", &v))
                im->wrong = json_object_get_int64(v);
        }
        json_object_put(o);
        if (ok)
            return 0;
    }
    return -1;
}

/* The shape's tolerance, as the array kind's comparison takes it: a bound that grows with a
 * param grows here too. */
static void shape_tolerance(const lab_t *lab, const char *shape, char *rtol, char *atol, size_t len)
{
    long p[ARRAY_MAX_PARAMS];
    char why[128];
    double grow = 1;
    if (lab->array.grows_with >= 0 && array_shape_params(&lab->array, shape, p, why, sizeof why) == 0)
        grow = (double)p[lab->array.grows_with];
    snprintf(rtol, len, "%.17g", lab->tol.rtol);
    snprintf(atol, len, "%.17g", lab->tol.atol * grow);
}

/* A kept timing of the shape on this device, newer than the timer: 0 with it in im. */
static int kept(const char *cache, const char *timer, const char *device, perf_impl_t *im)
{
    if (!cache || !(build_mtime(cache) > build_mtime(timer)))
        return -1;
    json_object *o = json_object_from_file(cache), *dev, *line;
    char text[1024];
    int rc = o && json_object_object_get_ex(o, "device", &dev) && json_object_object_get_ex(o, "line", &line) &&
                     strcmp(json_object_get_string(dev), device) == 0
                 ? parse_timing(json_object_get_string(line), im, text, sizeof text)
                 : -1;
    json_object_put(o);
    return rc;
}

static void keep(const char *cache, const char *device, const char *line)
{
    if (!cache)
        return;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "device", json_object_new_string(device));
    json_object_object_add(o, "line", json_object_new_string(line));
    const char *text = json_object_to_json_string(o);
    char err[128];
    write_file_atomic(cache, text, strlen(text), err, sizeof err); /* a cache: not kept, timed again */
    json_object_put(o);
}

/* The library on shape i: 0 with im, or -1 with why in msg. */
static int time_shape(const grade_opts_t *o, const lab_t *lab, const char *timer, const char *scratch, int i,
                      const char *shape, perf_impl_t *im, char *line, size_t linelen, strbuf_t *msg)
{
    char dir[PATH_MAX], err[512], rtol[32], atol[32];
    snprintf(dir, sizeof dir, "%.4000s/library-%d", scratch, i);
    if (mkdir_p(dir, err, sizeof err) != 0 || labgen_make(lab, shape, 1, VALUES_COURSE, dir, err, sizeof err) != 0) {
        sb_appendf(msg, "at %s its dataset was not made: %s\n", shape, err);
        return -1;
    }
    shape_tolerance(lab, shape, rtol, atol, sizeof rtol);
    char *argv[] = {(char *)timer, dir, LIBRARY_REPS, rtol, atol, "library", NULL};
    run_spec_t spec = {.argv = argv, .timeout_s = 300};
    run_result_t rr;
    gpu_slot_t slot; /* alone on the GPU, in its queue when the grading has one */
    gpu_queue_join(o->gpu_queue, o->gpu_index, GPU_EXCLUSIVE, &slot);
    run_one(&spec, &rr);
    gpu_queue_leave(&slot);
    int rc = rr.exited && rr.exit_code <= 1 && parse_timing(rr.output, im, line, linelen) == 0 ? 0 : -1;
    if (rc != 0)
        sb_appendf(msg, "at %s its timer failed:\n%.600s\n", shape, rr.output ? rr.output : "");
    run_result_free(&rr);
    rm_rf(dir);
    return rc;
}

void perf_library_time(const grade_opts_t *o, const lab_t *lab, const char *scratch, perf_result_t *pr,
                       strbuf_t *msg)
{
    const char *name = lab->array.baseline_name, *env = getenv("CUGRADE_LIBRARY_TIMER");
    if (!lab->array.baseline_source[0] || pr->nshapes == 0)
        return;
    char timer[PATH_MAX], folder[PATH_MAX];
    strbuf_t log = {0}, why = {0};
    gpu_device_t dev[GPU_DEVICES_MAX];
    if (env && *env)
        snprintf(timer, sizeof timer, "%s", env);
    else if (gpu_devices(dev, GPU_DEVICES_MAX) <= 0) /* a pretend GPU's replay (the tests'): no library to run */
        return;
    else {
        build_ctx_t ctx = {.root = o->root, .backend = BACKEND_NATIVE, .lab = lab, .scratch = scratch,
                           .timeout_s = 300};
        if (build_library_timer(&ctx, timer, sizeof timer, &log) != 0) {
            sb_appendf(msg, "the library baseline (%s) was not timed: it does not build here (the lab's, not "
                            "yours):\n%.600s\n", name, sb_str(&log));
            sb_free(&log);
            return;
        }
    }
    snprintf(folder, sizeof folder, "%s", timer);
    const char *kept_in = dirname(folder); /* the timings are kept beside the timer */
    for (int i = 0; i < pr->nshapes; i++) {
        perf_shape_t *s = &pr->shapes[i];
        char cache[PATH_MAX + 64], line[1024];
        snprintf(cache, sizeof cache, "%.4000s/%s.json", kept_in, s->shape);
        perf_impl_t im;
        const char *kept_at = env && *env ? NULL : cache; /* a pretend timer's times are not kept */
        if (kept(kept_at, timer, pr->device, &im) != 0) {
            if (time_shape(o, lab, timer, scratch, i, s->shape, &im, line, sizeof line, &why) != 0)
                continue;
            if (im.wrong == 0)
                keep(kept_at, pr->device, line);
        }
        if (im.wrong > 0)
            sb_appendf(&why, "at %s it gave %ld wrong elements (the lab's baseline, not your code)\n", s->shape,
                       im.wrong);
        else if (s->nimpls < PERF_MAX_IMPLS)
            s->impls[s->nimpls++] = im;
    }
    if (why.len)
        sb_appendf(msg, "the library baseline (%s) was not quoted everywhere:\n%s", name, sb_str(&why));
    sb_free(&why);
    sb_free(&log);
}

/* html_roofline.c - the roofline chart as inline SVG (html_roofline.h). */
#include "report/html_roofline.h"
#include "report/html_common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 640
#define H 380
#define L 78  /* left margin: the FLOP/s labels */
#define R 16
#define T 14
#define B 46  /* bottom margin: the FLOP per byte labels and the axis title */

static const char roofline_css[] =
    ".roofline text{font:11px system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;fill:#4a5262}"
    ".roofline .grid{stroke:#eceef3;stroke-width:1}.roofline .axis{stroke:#aeb5c2;stroke-width:1}"
    ".roofline .roof{stroke:#1c2230;stroke-width:2;fill:none}"
    ".roofline .sroof{stroke:#b0651c;stroke-width:1.5;stroke-dasharray:6 4}"
    ".roofline .sroof-label{fill:#b0651c}"
    ".roofline .pt{stroke-width:2}"
    ".roofline .student{fill:#7a4fb8;stroke:#7a4fb8}.roofline .reference{fill:#1e8449;stroke:#1e8449}"
    ".roofline .cublas{fill:#fff;stroke:#5b6474}.roofline .dot{fill:#3d6fc4;fill-opacity:.45;stroke:none}"
    ".roofline .gap{stroke:#7a4fb8;stroke-dasharray:2 3}";

typedef struct {
    double x0, x1, y0, y1; /* decades: 10^x0 .. 10^x1 FLOP/B, 10^y0 .. 10^y1 GFLOP/s */
} frame_t;

static double px(const frame_t *f, double intensity)
{
    return L + (log10(intensity) - f->x0) / (f->x1 - f->x0) * (W - L - R);
}

static double py(const frame_t *f, double gflops)
{
    return H - B - (log10(gflops) - f->y0) / (f->y1 - f->y0) * (H - T - B);
}

static void widen(double *lo, double *hi, double v)
{
    if (v > 0 && isfinite(v)) {
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
    }
}

/* Whole decades around every mark and the roofs' corner. */
static frame_t frame_of(const roofline_t *rl, const roofline_dot_t *dots, int ndots)
{
    double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
    for (int i = 0; i < rl->npoints; i++) {
        widen(&xlo, &xhi, rl->points[i].intensity);
        widen(&ylo, &yhi, rl->points[i].gflops);
        widen(&ylo, &yhi, rl->points[i].allowed_gflops);
    }
    for (int i = 0; i < ndots; i++) {
        widen(&xlo, &xhi, dots[i].intensity);
        widen(&ylo, &yhi, dots[i].gflops);
    }
    if (rl->roof.peak_gflops > 0) {
        widen(&xlo, &xhi, rl->roof.peak_gflops / rl->roof.dram_gbs); /* the ridge */
        widen(&ylo, &yhi, rl->roof.peak_gflops);
    }
    frame_t f = {floor(log10(xlo)) , ceil(log10(xhi)), floor(log10(ylo)), ceil(log10(yhi * 1.2))};
    if (f.x1 <= f.x0)
        f.x1 = f.x0 + 1;
    if (f.y1 <= f.y0)
        f.y1 = f.y0 + 1;
    return f;
}

static void text_at(strbuf_t *sb, double x, double y, const char *anchor, const char *cls, const char *text)
{
    sb_appendf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s%s>", x, y, anchor,
               cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    html_escape(sb, text);
    sb_append(sb, "</text>");
}

/* "100 G", "1 T", "10 T" */
static void flops_label(char *buf, size_t len, double gflops)
{
    if (gflops >= 1000)
        snprintf(buf, len, "%g TFLOP/s", gflops / 1000);
    else
        snprintf(buf, len, "%g GFLOP/s", gflops);
}

static void axes(strbuf_t *sb, const frame_t *f)
{
    char label[32];
    for (double d = f->x0; d <= f->x1 + 1e-9; d++) {
        double x = px(f, pow(10, d));
        sb_appendf(sb, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, T, x, H - B);
        snprintf(label, sizeof label, "%g", pow(10, d));
        text_at(sb, x, H - B + 15, "middle", NULL, label);
    }
    for (double d = f->y0; d <= f->y1 + 1e-9; d++) {
        double y = py(f, pow(10, d));
        sb_appendf(sb, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", L, y, W - R, y);
        flops_label(label, sizeof label, pow(10, d));
        text_at(sb, L - 6, y + 4, "end", NULL, label);
    }
    sb_appendf(sb, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", L, H - B, W - R, H - B);
    sb_appendf(sb, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", L, T, L, H - B);
    text_at(sb, (L + W - R) / 2.0, H - 8, "middle", NULL, "FLOP per byte of global memory (arithmetic intensity)");
}

/* DRAM's slope up to the FP32 peak (or to the top, with no peak known). */
static void roofs(strbuf_t *sb, const roofline_t *rl, const frame_t *f)
{
    double xlo = pow(10, f->x0), xhi = pow(10, f->x1), bw = rl->roof.dram_gbs, peak = rl->roof.peak_gflops;
    double ylo = pow(10, f->y0), ytop = pow(10, f->y1);
    double x_start = fmax(xlo, ylo / bw); /* where the slope enters the frame */
    double ridge = peak > 0 ? peak / bw : fmin(xhi, ytop / bw);
    char label[64];
    sb_appendf(sb, "<polyline class=\"roof\" points=\"%.1f,%.1f %.1f,%.1f", px(f, x_start), py(f, bw * x_start),
               px(f, ridge), py(f, bw * ridge));
    if (peak > 0)
        sb_appendf(sb, " %.1f,%.1f", px(f, xhi), py(f, peak));
    sb_append(sb, "\"/>");
    if (ridge > x_start) { /* along the slope, above it (where no kernel is, but one the caches help) */
        double lx = x_start * pow(ridge / x_start, 0.3), x = px(f, lx), y = py(f, bw * lx) - 6;
        double angle = atan2(py(f, bw * ridge) - py(f, bw * x_start), px(f, ridge) - px(f, x_start)) * 180 / M_PI;
        snprintf(label, sizeof label, "DRAM %.0f GB/s", bw);
        sb_appendf(sb, "<g transform=\"rotate(%.1f %.1f %.1f)\">", angle, x, y);
        text_at(sb, x, y, "middle", NULL, label);
        sb_append(sb, "</g>");
    }
    if (peak > 0) {
        snprintf(label, sizeof label, "FP32 peak %.1f TFLOP/s", peak / 1000);
        text_at(sb, W - R - 4, py(f, peak) - 6, "end", NULL, label);
    }
}

/* A kernel's shared-memory roof, dashed, around it; labelled once. */
static void shared_roof(strbuf_t *sb, const frame_t *f, const roofline_point_t *p, int labelled)
{
    double x = px(f, p->intensity), ys = py(f, p->allowed_gflops);
    sb_appendf(sb, "<line class=\"sroof\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", fmax(L, x - 60), ys,
               fmin(W - R, x + 60), ys);
    if (!labelled)
        text_at(sb, fmin(W - R, x + 64), ys + 4, "start", "sroof-label", "shared-memory loads");
}

static void mark(strbuf_t *sb, const frame_t *f, const roofline_point_t *p, const char *label, int below)
{
    double x = px(f, p->intensity), y = py(f, p->gflops);
    if (p->allowed_gflops > p->gflops) /* how far below the roof that bounds it */
        sb_appendf(sb, "<line class=\"gap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, y, x,
                   py(f, p->allowed_gflops));
    sb_appendf(sb, "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\"><title>", p->name, x, y);
    char tip[160];
    snprintf(tip, sizeof tip, "%s: %.0f GFLOP/s at %.3g FLOP/B%s", label, p->gflops, p->intensity,
             p->compulsory ? " (compulsory traffic)" : "");
    html_escape(sb, tip);
    sb_append(sb, "</title></circle>");
    int right = x > W - R - 90; /* near the right edge: the label on the left */
    text_at(sb, right ? x - 9 : x + 9, y + (below ? 14 : -7), right ? "end" : "start", NULL, label);
}

static const char *point_label(const roofline_point_t *p)
{
    return strcmp(p->name, "student") == 0     ? "your kernel"
           : strcmp(p->name, "reference") == 0 ? "reference"
           : strcmp(p->name, "cublas") == 0    ? "cuBLAS"
                                               : p->name;
}

void html_roofline_svg(strbuf_t *sb, const roofline_t *rl, const roofline_dot_t *dots, int ndots,
                       const char *id)
{
    frame_t f = frame_of(rl, dots, ndots);
    sb_appendf(sb, "<svg class=\"roofline\" id=\"%s\" viewBox=\"0 0 %d %d\" width=\"100%%\" "
                   "style=\"max-width:%dpx\" role=\"img\" aria-label=\"roofline of ",
               id, W, H, W);
    html_escape(sb, rl->device);
    sb_appendf(sb, "\"><style>%s</style>", roofline_css);
    axes(sb, &f);
    roofs(sb, rl, &f);
    for (int i = 0; i < ndots; i++) {
        if (!(dots[i].gflops > 0) || !(dots[i].intensity > 0))
            continue;
        sb_appendf(sb, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>",
                   px(&f, dots[i].intensity), py(&f, dots[i].gflops));
        char tip[64];
        snprintf(tip, sizeof tip, ": %.0f GFLOP/s at %.3g FLOP/B", dots[i].gflops, dots[i].intensity);
        html_escape(sb, dots[i].who ? dots[i].who : "");
        html_escape(sb, tip);
        sb_append(sb, "</title></circle>");
    }
    int labelled = 0;
    for (int i = 0; i < rl->npoints; i++) { /* the roofs first, one of two that coincide */
        const roofline_point_t *p = &rl->points[i];
        int seen = 0;
        for (int k = 0; k < i; k++)
            seen |= rl->points[k].bound == ROOF_SHARED &&
                    fabs(log10(rl->points[k].allowed_gflops / p->allowed_gflops)) < 0.02 &&
                    fabs(log10(rl->points[k].intensity / p->intensity)) < 0.3;
        if (p->bound == ROOF_SHARED && p->allowed_gflops > 0 && !seen)
            shared_roof(sb, &f, p, labelled++);
    }
    for (int i = rl->npoints - 1; i >= 0; i--) { /* the student's on top */
        const roofline_point_t *p = &rl->points[i];
        if (ndots > 0 && strcmp(p->name, "student") == 0)
            continue; /* the class page: each student is a dot */
        int below = i > 0 && fabs(log10(p->gflops / rl->points[0].gflops)) < 0.08 &&
                    fabs(log10(p->intensity / rl->points[0].intensity)) < 0.3;
        mark(sb, &f, p, point_label(p), below);
    }
    sb_append(sb, "</svg>");
}

void html_roofline_caption(strbuf_t *sb, const roofline_t *rl)
{
    sb_append(sb, "The roofline of ");
    html_escape(sb, rl->device);
    sb_append(sb, " on ");
    html_escape(sb, rl->shape);
    sb_append(sb, ": no kernel goes faster than its FLOP per byte times DRAM's bandwidth (the slope) "
                  "nor than the FP32 peak (the flat roof); shared-memory loads have a roof of their own "
                  "(dashed). A kernel's FLOP per byte is what its loads and stores asked of global memory "
                  "on the datasets, counted by the grader's executor before any cache (a kernel above the "
                  "slope had the L1 and L2 caches serve part of it); cuBLAS, hollow, sits at the shape's "
                  "compulsory traffic, each matrix moved once. Tiling moves a kernel right.");
}

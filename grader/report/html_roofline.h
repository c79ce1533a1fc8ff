/* html_roofline.h - the roofline chart of the HTML pages (issue 40, item 6):
 * log-log, FLOP per byte of global memory across, FLOP/s up; the device's
 * roofs (DRAM's bandwidth rising to the FP32 peak, and the shared-memory
 * roof of each kernel it bounds, dashed), the student's kernel, the
 * reference and cuBLAS (hollow: placed at the shape's compulsory traffic),
 * and on the class page every student's kernel as a dot. One inline SVG
 * with its own style; every text escaped. */
#ifndef CUGRADE_HTML_ROOFLINE_H
#define CUGRADE_HTML_ROOFLINE_H

#include "score/roofline.h"
#include "util/util.h"

/* A student's kernel on the class page. */
typedef struct {
    double gflops, intensity;
    const char *who; /* the dot's tooltip */
} roofline_dot_t;

/* The chart of rl (its points; a student page's), with dots[0..ndots) drawn
 * too (the class's; NULL, 0: none); id is the svg's id. */
void html_roofline_svg(strbuf_t *sb, const roofline_t *rl, const roofline_dot_t *dots, int ndots,
                       const char *id);

/* The caption under it: what each axis and mark means, and the device. */
void html_roofline_caption(strbuf_t *sb, const roofline_t *rl);

#endif

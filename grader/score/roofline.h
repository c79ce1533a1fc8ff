/* roofline.h - where a kernel sits on its GPU's roofline (issue 40, item 6).
 * The device's ceilings come from its attributes: the FP32 peak, DRAM's
 * bandwidth and shared memory's. The student's kernel, the reference and
 * cuBLAS are placed by the FLOP/s each reached on the largest timing shape
 * and by their arithmetic intensity, FLOP per byte of global-memory
 * traffic. For the two kernels the executor ran, that is what their loads
 * and stores asked for on the datasets (before any cache: the lecture's
 * compute-to-global-memory-access ratio). cuBLAS's kernels run on no
 * executor: it sits at the shape's compulsory traffic, each matrix moved
 * once, marked as such. A kernel goes no faster than its FLOP per byte
 * times a memory's bandwidth allows, nor than the FP32 peak: the lowest
 * of those roofs is what bounds it. */
#ifndef CUGRADE_ROOFLINE_H
#define CUGRADE_ROOFLINE_H

#include "score/perf_result.h"
#include "util/util.h"

struct json_object;
struct lab;

/* What the kernels of one implementation moved, summed over the runs
 * that ended (score/checks.h's evidence, or the reference's counts). */
typedef struct {
    double global_bytes, shared_load_bytes, flop;
} roofline_traffic_t;

typedef struct {
    double peak_gflops; /* FP32: SMs x FP32 lanes x 2 x SM clock; 0: unknown */
    double dram_gbs;    /* the theoretical peak */
    double shared_gbs;  /* SMs x 32 banks x 4 B x SM clock; 0: unknown */
} roofline_ceilings_t;

typedef enum { ROOF_NONE = 0, ROOF_FP32, ROOF_DRAM, ROOF_SHARED } roofline_bound_t;

typedef struct {
    char name[16];           /* "student", "reference", "cublas" */
    double gflops;           /* reached on the shape */
    double intensity;        /* FLOP per byte of global memory */
    double shared_intensity; /* FLOP per byte loaded from shared memory; 0: none or unknown */
    int compulsory;          /* intensity is the shape's compulsory traffic's, not measured */
    double allowed_gflops;   /* the lowest roof at its intensities */
    roofline_bound_t bound;  /* which roof that is */
} roofline_point_t;

#define ROOFLINE_MAX_POINTS 3

typedef struct roofline_s {
    char device[128], shape[32];
    double shape_intensity; /* the shape's compulsory FLOP per byte */
    roofline_ceilings_t roof;
    roofline_point_t points[ROOFLINE_MAX_POINTS]; /* the student's first */
    int npoints;
    const char *reuse_example; /* the kind's: how reuse cuts its traffic ("a tile of side T ..."); NULL: none */
} roofline_t;

/* FP32 lanes an SM has on a compute capability (0: not known). */
int roofline_fp32_lanes(int cc_major, int cc_minor);

/* The roofline of a timing: 0, or -1 when it cannot be drawn (no DRAM
 * bandwidth reported, no student timing or traffic, a lab whose kind has
 * no shape_work). reference may be NULL or hold no traffic (no point). */
int roofline_build(const perf_result_t *r, const struct lab *lab, const roofline_traffic_t *student,
                   const roofline_traffic_t *reference, roofline_t *out);

/* The terminal's lines: where the student's kernel sits, what bounds it,
 * and what would raise that roof. */
void roofline_sentence(const roofline_t *rl, strbuf_t *out);

/* results.json's extra_data "roofline", and back (the HTML pages): 0, or
 * -1 when o is not one. */
struct json_object *roofline_to_json(const roofline_t *rl);
int roofline_from_json(struct json_object *o, roofline_t *rl);

/* "bound by shared-memory loads" */
const char *roofline_bound_text(roofline_bound_t b);

#endif

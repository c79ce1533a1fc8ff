/* fuzz_measured.c - libFuzzer harness of the measurements reader
 * (score/measured_json.c): `cugrade batch --resume` and `cugrade rescore`
 * read RESULTS_DIR/<id>/measurements.json back, and a file cut short, edited
 * or damaged must be refused, never crash or be half believed. The input is
 * parsed with measured_parse; what it accepts must write back to JSON that
 * reads back to the same text, and score (score_measured, under a rubric
 * with every check and a performance test, on the gpu backend's path too)
 * to a finite score within its maximum. */
#include "fuzz_common.h"
#include "kinds/matmul.h"
#include "score/measured.h"
#include "score/score.h"

#include <math.h>

static lab_rubric_t fuzz_rubric(void)
{
    lab_rubric_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.compile_name, sizeof r.compile_name, "compiles");
    r.datasets.points = 3.5;
    r.hidden.count = 2;
    for (int id = 0; id < CHECK_COUNT; id++) {
        r.checks[id].present = 1;
        r.checks[id].points = 4;
    }
    r.checks[CHECK_TRAFFIC_REDUCED].max_bytes_per_flop = 1;
    r.performance = (perf_rule_t){.present = 1, .points = 10, .zero_at = 0.5, .full_at = 0.9,
                                  .nshapes = 1, .time_cap_s = 30, .shapes = {"64x64x64"}};
    return r;
}

/* Scores m and checks what every grade promises. */
static void check_score(const measured_t *m)
{
    lab_rubric_t r = fuzz_rubric();
    lab_t lab;
    memset(&lab, 0, sizeof lab);
    lab.tile_width = 16;
    lab.kind = &kind_matmul;
    lab.has_timing = 1;
    grade_t g;
    score_measured(m, &r, &lab, &g);
    double score = grade_score(&g), max = grade_max_score(&g);
    if (!isfinite(score) || !isfinite(max) || score < 0 || score > max + 1e-9)
        abort();
    char *text = grade_to_json(&g);
    free(text);
    grade_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    char *text = malloc(size + 1), err[1024];
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    measured_t m, back;
    if (measured_parse("measurements.json", text, &m, err, sizeof err) == 0) {
        char *again = measured_to_json(&m);
        if (measured_parse("again", again, &back, err, sizeof err) != 0)
            abort(); /* what it wrote, it must read */
        char *third = measured_to_json(&back);
        if (strcmp(again, third) != 0)
            abort();
        check_score(&m);
        free(third), free(again);
        measured_free(&back), measured_free(&m);
    } else if (strncmp(err, "measurements.json", 17) != 0) {
        abort(); /* a refusal names the file */
    }
    free(text);
    return 0;
}

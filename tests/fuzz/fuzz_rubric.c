/* fuzz_rubric.c - libFuzzer harness of the rubric loader (course/rubric.c):
 * the input is written as <scratch>/rubric.json and loaded with rubric_load
 * for its first lab (or lab3), then every dataset rule is asked for, as
 * grading does. Besides the sanitizers, it checks what an accepted rubric
 * promises: every number of points finite and >= 0, every time limit
 * finite and >= 0 (0: not set), at most PERF_MAX_SHAPES performance shapes. */
#include "course/rubric.h"
#include "fuzz_common.h"

#include <math.h>

/* The input's first lab (a short key of "labs"), else lab3. */
static void lab_for(const uint8_t *data, size_t size, char lab[64])
{
    snprintf(lab, 64, "lab3");
    struct json_tokener *tok = json_tokener_new();
    struct json_object *root = json_tokener_parse_ex(tok, (const char *)data, (int)size), *labs;
    if (root && json_object_is_type(root, json_type_object) &&
        json_object_object_get_ex(root, "labs", &labs) && json_object_is_type(labs, json_type_object)) {
        json_object_object_foreach(labs, key, value) {
            (void)value;
            if (*key && strlen(key) < 64)
                snprintf(lab, 64, "%s", key);
            break;
        }
    }
    json_object_put(root);
    json_tokener_free(tok);
}

static void check_points(double p)
{
    if (!isfinite(p) || p < 0)
        abort();
}

static void check_rule(dataset_rule_t r)
{
    check_points(r.points);
    if (!isfinite(r.time_limit_s) || r.time_limit_s < 0 || (int)r.visibility < 0 ||
        r.visibility > VIS_AFTER_PUBLISHED)
        abort();
}

static void check_rubric(const lab_rubric_t *r)
{
    static const char *names[] = {"0", "1", "12", "19", ""};
    check_points(r->compile_points);
    check_rule(r->datasets);
    for (int i = 0; i < CHECK_COUNT; i++)
        check_points(r->checks[i].points);
    check_points(r->performance.points);
    if (r->performance.nshapes < 0 || r->performance.nshapes > PERF_MAX_SHAPES ||
        r->noverrides < 0 || (r->noverrides > 0 && !r->overrides))
        abort();
    for (int n = 0; n <= 20; n += 20) {
        for (int i = 0; i < 5; i++)
            check_rule(rubric_dataset_rule(r, names[i], n));
        for (int i = 0; i < r->noverrides; i++)
            check_rule(rubric_dataset_rule(r, r->overrides[i].name, n));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    char path[256], lab[64], err[1024];
    snprintf(path, sizeof path, "%s/rubric.json", fuzz_scratch());
    fuzz_write(path, data, size);
    lab_for(data, size, lab);
    lab_rubric_t r;
    if (rubric_load(path, lab, &r, err, sizeof err) == 0) {
        check_rubric(&r);
        rubric_free(&r);
    }
    return 0;
}

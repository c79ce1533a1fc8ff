/* fuzz_lab.c - libFuzzer harness of the lab manifest loader
 * (course/lab.c): the input is written as <scratch>/labs/<lab>/lab.json and
 * loaded with lab_load, as `cugrade run --lab` does. <lab> is the input's
 * own "name" when it can be a folder name (so good manifests load in full),
 * else lab3. Besides the sanitizers, it checks what
 * an accepted manifest promises: the name is the folder's, the student file
 * a plain name, a known kind with its number of inputs, a tile width in
 * range, a driver for a kernel-style lab, the (A, B, C, M, N, K) launch
 * convention only for a matmul kernel lab, known rules only. */
#include "build/rules.h"
#include "course/lab.h"
#include "fuzz_common.h"
#include "kinds/kind.h"

/* The input's "name" when it can be a folder name (short, plain, no NUL),
 * so manifests load past the name check; else lab3. */
static void name_for(const uint8_t *data, size_t size, char name[64])
{
    snprintf(name, 64, "lab3");
    struct json_tokener *tok = json_tokener_new();
    struct json_object *root = json_tokener_parse_ex(tok, (const char *)data, (int)size), *v;
    if (root && json_object_is_type(root, json_type_object) &&
        json_object_object_get_ex(root, "name", &v) && json_object_is_type(v, json_type_string)) {
        const char *s = json_object_get_string(v);
        size_t n = strlen(s);
        if (n > 0 && n < 64 && n == (size_t)json_object_get_string_len(v) && !strchr(s, '/') &&
            strcmp(s, ".") != 0 && strcmp(s, "..") != 0)
            snprintf(name, 64, "%s", s);
    }
    json_object_put(root);
    json_tokener_free(tok);
}

/* labs/<name> under root: the one lab folder, renamed to each input's name
 * (so no folder piles up); the name it got. */
static const char *lab_folder(const char *root, const char *want)
{
    static char have[64];
    char from[256], to[256];
    snprintf(to, sizeof to, "%s/labs/%s", root, want);
    if (!have[0]) {
        snprintf(from, sizeof from, "%s/labs", root);
        mkdir(from, 0755);
        snprintf(have, sizeof have, "lab3");
        snprintf(from, sizeof from, "%s/labs/lab3", root);
        if (mkdir(from, 0755) != 0)
            abort();
    }
    snprintf(from, sizeof from, "%s/labs/%s", root, have);
    if (strcmp(have, want) != 0 && rename(from, to) == 0)
        snprintf(have, sizeof have, "%s", want);
    return have;
}

static void check_lab(const lab_t *lab, const char *folder)
{
    if (strcmp(lab->name, folder) != 0 || !lab->student_file[0] ||
        strchr(lab->student_file, '/') || !lab->kind || lab->inputs != lab->kind->inputs ||
        lab->tile_width < 1 || lab->tile_width > 1024)
        abort();
    if (strcmp(lab->style, "kernel") == 0 && !lab->driver_path[0])
        abort();
    if (strcmp(lab->style, "kernel") != 0 && !lab_is_program(lab))
        abort();
    /* (A, B, C, M, N, K) only for a matmul kernel lab; only known rules */
    if (lab->launch_args == LAUNCH_M_N_K &&
        (strcmp(lab->kind->name, "matmul") != 0 || lab_is_program(lab)))
        abort();
    if (lab->rules & ~((1u << RULE_COUNT) - 1))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    const char *root = fuzz_scratch();
    char path[512], err[1024], want[64];
    name_for(data, size, want);
    const char *folder = lab_folder(root, want);
    snprintf(path, sizeof path, "%s/labs/%s/lab.json", root, folder);
    fuzz_write(path, data, size);
    lab_t *lab = malloc(sizeof *lab);
    if (lab_load(root, folder, lab, err, sizeof err) == 0)
        check_lab(lab, folder);
    free(lab);
    return 0;
}

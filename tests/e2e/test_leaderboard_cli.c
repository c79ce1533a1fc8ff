/* test_leaderboard_cli.c - `bin/cugrade leaderboard` as a TA runs it, on a
 * results folder of hand-written results.json files (no grading, no GPU):
 * the ranked lines on stdout and exit 0, a malformed file named on stderr
 * with its line while the others are still printed, --top, --json, --lab,
 * an empty folder said so, a missing one exit 2, bad usage exit 64; and
 * after a real `cugrade batch` on the emu backend with a performance test in
 * the rubric: nobody ranked, each with why, no "leaderboard" field written. */
#include "e2e.h"

#include <sys/wait.h>

static char dir[64];

static void put(const char *id, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, id);
    cr_assert_eq(mkdir_p(path, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/%s/results.json", dir, id);
    cr_assert_eq(write_file_atomic(path, text, strlen(text), NULL, 0), 0);
}

static void timed(const char *id, const char *geo, const char *pct)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"leaderboard\": [{\"name\": \"TFLOP/s (geomean)\", \"value\": %s, \"order\": \"desc\"},"
             " {\"name\": \"%% of cuBLAS (geomean)\", \"value\": %s, \"order\": \"desc\"},"
             " {\"name\": \"TFLOP/s 4096x4096x4096\", \"value\": %s, \"order\": \"desc\"}],"
             " \"extra_data\": {\"lab\": \"lab3\", \"backend\": \"gpu\", \"performance_shapes\":"
             " [{\"shape\": \"4096x4096x4096\", \"ratio_to_cublas\": 0.%s}]}}",
             geo, pct, geo, pct);
    put(id, text);
}

static void make_class(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-lbcli-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    timed("s1", "12.5", "25");
    timed("s2", "40.125", "80");
    put("s3", "{\"extra_data\": {\"lab\": \"lab3\", \"backend\": \"emu\"},"
              " \"tests\": [{\"name\": \"performance\", \"status\": \"passed\"}]}");
    put("s4", "{\"extra_data\": {\"lab\": \"lab3\"},\n\"leaderboard\": [ 7,\n");
}

typedef struct {
    int status;
    char *out, *err;
} cli_t;

/* Runs `bin/cugrade leaderboard ARGS` with stdout and stderr apart. */
static cli_t cli(const char *args)
{
    char cmd[1024], out[128], err[128];
    snprintf(out, sizeof out, "%s.out", dir);
    snprintf(err, sizeof err, "%s.err", dir);
    snprintf(cmd, sizeof cmd, "bin/cugrade leaderboard %s >%s 2>%s", args, out, err);
    int st = system(cmd);
    cli_t r = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, read_file(out, NULL, NULL, 0),
               read_file(err, NULL, NULL, 0)};
    cr_assert(r.out && r.err);
    unlink(out);
    unlink(err);
    return r;
}

static void cli_free(cli_t *r)
{
    free(r->out);
    free(r->err);
}

Test(leaderboard_cli, ranked_lines_and_the_malformed_file_named)
{
    make_class();
    char args[128], want[512];
    snprintf(args, sizeof args, "--out %s", dir);
    cli_t r = cli(args);
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_assert_str_eq(r.out,
                     "lab3 leaderboard: 2 of 3 students ranked by TFLOP/s (geometric mean over 1 shape), best first\n"
                     "rank  student  TFLOP/s  % of cuBLAS  4096x4096x4096\n"
                     "   1  s2        40.125        80.0%  40.125 (80.0%)\n"
                     "   2  s1        12.500        25.0%  12.500 (25.0%)\n"
                     "   -  s3       not timed on the emu backend (timed on a GPU only)\n");
    snprintf(want, sizeof want, "cugrade leaderboard: skipped %s/s4/results.json:3: not JSON: "
                                "the file ends inside a value\n", dir);
    cr_assert_str_eq(r.err, want);
    cli_free(&r);
    snprintf(args, sizeof args, "--top 1 %s", dir); /* the folder may also come last */
    r = cli(args);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "   1  s2 "));
    cr_assert_null(strstr(r.out, "s1"));
    cr_assert(strstr(r.out, "(--top 1: 2 more not shown)\n"), "%s", r.out);
    cli_free(&r);
    rm_rf(dir);
}

Test(leaderboard_cli, json_and_lab)
{
    make_class();
    char args[128];
    snprintf(args, sizeof args, "--out %s --json --lab lab3", dir);
    cli_t r = cli(args);
    cr_assert_eq(r.status, 0);
    json_object *j = json_tokener_parse(r.out), *ranked, *first, *id;
    cr_assert_not_null(j, "%s", r.out);
    cr_assert(json_object_object_get_ex(j, "ranked", &ranked));
    first = json_object_array_get_idx(ranked, 0);
    cr_assert(json_object_object_get_ex(first, "id", &id));
    cr_assert_str_eq(json_object_get_string(id), "s2");
    json_object_put(j);
    cli_free(&r);
    snprintf(args, sizeof args, "--out %s --lab dotprod", dir);
    r = cli(args);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, ": no results.json to rank for this lab\n"), "%s", r.out);
    cli_free(&r);
    rm_rf(dir);
}

Test(leaderboard_cli, empty_missing_and_bad_usage)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-lbcli-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char args[128], want[256];
    snprintf(args, sizeof args, "--out %s", dir);
    cli_t r = cli(args);
    cr_assert_eq(r.status, 0);
    snprintf(want, sizeof want, "%s: no results.json to rank (nothing graded yet)\n", dir);
    cr_assert_str_eq(r.out, want);
    cli_free(&r);
    snprintf(args, sizeof args, "--out %s/missing", dir);
    r = cli(args);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "cannot read the results folder"), "%s", r.err);
    cli_free(&r);
    r = cli("--top x");
    cr_assert_eq(r.status, 64);
    cr_assert(strstr(r.err, "bad --top 'x'"), "%s", r.err);
    cli_free(&r);
    r = cli("");
    cr_assert_eq(r.status, 64);
    cr_assert(strstr(r.err, "--out RESULTS_DIR is required"), "%s", r.err);
    cli_free(&r);
    rm_rf(dir);
}

/* A small class graded on the CPU emulator: nobody is timed there. */
Test(leaderboard_cli, after_an_emu_batch_nobody_is_ranked_and_each_says_why, .timeout = 300)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-lbcli-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char subs[128], datasets[128], rubric[128], out[128], path[256];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(datasets, sizeof datasets, "%s/datasets", dir);
    snprintf(rubric, sizeof rubric, "%s/rubric.json", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    const char *who[][2] = {{"ann", "reference/lab3/matmul.cu"},
                            {"ben", SUB "compile_error.cu"},
                            {"cat", SUB "intdiv_grid.cu"}};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s/lab3", subs, who[i][0]);
        cr_assert_eq(mkdir_p(path, NULL, 0), 0);
        snprintf(path, sizeof path, "%s/%s/lab3/matmul.cu", subs, who[i][0]);
        char *text = read_file(who[i][1], NULL, NULL, 0);
        cr_assert_not_null(text);
        write_text(path, text);
        free(text);
    }
    const char *shapes[] = {"16x16x16", "33x17x9", NULL};
    make_datasets(datasets, shapes);
    write_text(rubric, "{\"version\": 1, \"labs\": {\"lab3\": {\"compile\": {\"name\": \"compiles\","
                       " \"points\": 0}, \"datasets\": {\"points\": 1, \"time_limit_s\": 20},"
                       " \"hidden\": {\"count\": 0}, \"performance\": {\"points\": 10, \"shapes\":"
                       " [\"256x256x256\"], \"zero_at\": 0.5, \"full_at\": 0.9}}}}");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "bin/cugrade batch --lab lab3 --out %s --backend emu --checks none "
                              "--datasets %s --rubric %s %s >/dev/null 2>&1", out, datasets, rubric, subs);
    cr_assert_eq(system(cmd), 0, "batch failed");
    char args[160];
    snprintf(args, sizeof args, "--out %s", out);
    cli_t r = cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "lab3 leaderboard: nobody ranked (3 students, none with a usable GPU timing)\n"
                            "rank  student  why not ranked\n"
                            "   -  ann      not timed on the emu backend (timed on a GPU only)\n"
                            "   -  ben      did not compile\n"
                            "   -  cat      did not pass correctness (1 of 2 datasets)\n");
    cr_assert_str_eq(r.err, "");
    cli_free(&r);
    snprintf(path, sizeof path, "%s/ann/results.json", out);
    char *results = read_file(path, NULL, NULL, 0);
    cr_assert_not_null(results);
    cr_assert_null(strstr(results, "\"leaderboard\""), "no leaderboard field without a timing");
    free(results);
    char *html = NULL;
    snprintf(path, sizeof path, "%s/class.html", out);
    html = read_file(path, NULL, NULL, 0);
    cr_assert(html && strstr(html, "id=\"board-none\""), "class.html says nobody was timed");
    free(html);
    rm_rf(dir);
}

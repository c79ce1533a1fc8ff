/* test_batch_baseline.c - a batch's baseline timings kept and reported
 * (batch/batch_baseline.h) without a GPU: the reference's spread across GPUs
 * and time is max/min - 1 per shape, written to perf-baselines.json (a
 * shard's to perf-baselines-shardK.json, so tasks sharing a results folder
 * keep each its own), printed, and gathered for summary.json; a batch with
 * no baseline to make gives its children none; each GPU's first baseline is
 * timed beside the others', not after them. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdatomic.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch/batch.h"
#include "batch/batch_baseline.h"
#include "util/util.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cugrade-bbase-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) { rm_rf(dir); }

TestSuite(batch_baseline, .init = make_dir, .fini = remove_dir);

static void add_timing(baselines_t *b, int gpu, double reference)
{
    baseline_timing_t *t = &b->timings[b->ntimings++];
    t->gpu = gpu;
    snprintf(t->device, sizeof t->device, "NVIDIA H100 80GB HBM3");
    t->nshapes = 1;
    snprintf(t->shape[0], sizeof t->shape[0], "4096x4096x4096");
    t->reference[0] = reference;
    t->cublas[0] = 50000;
    b->latest[gpu] = 1;
}

static json_object *spread_of(const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    json_object *o = json_object_from_file(path);
    cr_assert_not_null(o, "%s was not written", path);
    return o;
}

Test(batch_baseline, the_spread_across_gpus_is_written_printed_and_gathered)
{
    batch_opts_t o = {0};
    baselines_t b = {.o = &o, .interval_s = 120};
    b.timings = calloc(BASELINE_MAX_TIMINGS, sizeof *b.timings);
    add_timing(&b, 0, 8000);
    add_timing(&b, 1, 8800);
    add_timing(&b, 0, 8400);
    char err[256], printed[1024] = "";
    FILE *out = fmemopen(printed, sizeof printed, "w");
    cr_assert_eq(baselines_write(&b, dir, out, err, sizeof err), 0, "%s", err);
    fclose(out);
    cr_assert(strstr(printed, "the reference timed 3 time(s) on 2 GPU(s), spread 10.0%"), "%s",
              printed);
    json_object *root = spread_of("perf-baselines.json"), *spread, *timings;
    cr_assert(json_object_object_get_ex(root, "spread", &spread));
    cr_assert(json_object_object_get_ex(root, "timings", &timings));
    cr_assert_eq(json_object_array_length(timings), 3);
    json_object *first = json_object_array_get_idx(spread, 0), *v;
    cr_assert(json_object_object_get_ex(first, "spread", &v));
    cr_assert_float_eq(json_object_get_double(v), 0.1, 1e-12);
    cr_assert(json_object_object_get_ex(first, "reference_min", &v));
    cr_assert_float_eq(json_object_get_double(v), 8000, 1e-9);
    json_object_put(root);

    /* shard 1 of a class writes its own file beside it; both are gathered */
    o.shard_count = 3;
    o.shard_index = 1;
    cr_assert_eq(baselines_write(&b, dir, NULL, err, sizeof err), 0, "%s", err);
    json_object_put(spread_of("perf-baselines-shard1.json"));
    json_object *all = baselines_load_all(dir);
    cr_assert_not_null(all);
    cr_assert_eq(json_object_array_length(all), 2);
    json_object_put(all);
    /* the class files list them (an empty class here: the results folder has no student) */
    cr_assert_eq(batch_write_class_files(dir, NULL, err, sizeof err), 0, "%s", err);
    json_object *summary = spread_of("summary.json"), *listed;
    cr_assert(json_object_object_get_ex(summary, "perf_baselines", &listed));
    cr_assert_eq(json_object_array_length(listed), 2);
    json_object_put(summary);
    baselines_free(&b);
}

Test(batch_baseline, nothing_timed_nothing_written_and_no_baseline_given)
{
    batch_opts_t o = {0};
    baselines_t b = {.o = &o};
    char err[256], path[PATH_MAX];
    cr_assert_eq(baselines_write(&b, dir, NULL, err, sizeof err), 0);
    cr_assert_null(baselines_load_all(dir), "no perf-baselines file for a batch that timed none");
    cr_assert_null(baselines_ensure(&b, 0, path, sizeof path, NULL), "not wanted: none given");
}

/* b, wanted, for a batch of o, timed by time_gpu (NULL: never), its files
 * under the test's folder. */
static void wanted_baselines(baselines_t *b, const batch_opts_t *o,
                             int (*time_gpu)(baselines_t *, int, FILE *))
{
    *b = (baselines_t){.o = o, .wanted = 1, .interval_s = 120, .time_gpu = time_gpu};
    for (int g = 0; g < BASELINE_MAX_GPUS; g++)
        pthread_mutex_init(&b->lock[g], NULL);
    snprintf(b->dir, sizeof b->dir, "%s/.perf-baseline", dir);
}

Test(batch_baseline, a_peek_tells_ready_none_and_not_yet_without_waiting)
{
    batch_opts_t o = {0};
    baselines_t b;
    wanted_baselines(&b, &o, NULL);
    char path[PATH_MAX] = "old";
    cr_assert_eq(baselines_peek(&b, 1, path, sizeof path), -1, "not timed yet");
    cr_assert_str_eq(path, "");
    b.latest[1] = 5;
    cr_assert_eq(baselines_peek(&b, 1, path, sizeof path), 1);
    char want[PATH_MAX + 32];
    snprintf(want, sizeof want, "%s/.perf-baseline/gpu1.report", dir);
    cr_assert_str_eq(path, want);
    pthread_mutex_lock(&b.lock[1]); /* a worker times it again */
    cr_assert_eq(baselines_peek(&b, 1, path, sizeof path), -1, "a peek does not wait");
    pthread_mutex_unlock(&b.lock[1]);
    b.failed[1] = 1;
    cr_assert_eq(baselines_peek(&b, 1, path, sizeof path), 0, "failed: none to use");
    cr_assert_str_eq(path, "");
    b.wanted = 0;
    cr_assert_eq(baselines_peek(&b, 0, path, sizeof path), 0, "not wanted: none to use");
}

/* A stand-in for the timing program: GPU 0's and GPU 1's first timings each
 * wait (up to 20 s) until the other has begun, and say whether they met. */
static pthread_mutex_t meet_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t meet_cond = PTHREAD_COND_INITIALIZER;
static int begun, met[2];

static int time_when_both_begin(baselines_t *b, int gpu, FILE *out)
{
    (void)b;
    (void)out;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 20;
    pthread_mutex_lock(&meet_lock);
    begun++;
    pthread_cond_broadcast(&meet_cond);
    int rc = 0;
    while (begun < 2 && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&meet_cond, &meet_lock, &until);
    met[gpu] = begun == 2;
    pthread_mutex_unlock(&meet_lock);
    return 0;
}

typedef struct {
    baselines_t *b;
    int gpu;
    char path[PATH_MAX];
    const char *given;
} first_call_t;

static void *ensure_on(void *arg)
{
    first_call_t *c = arg;
    c->given = baselines_ensure(c->b, c->gpu, c->path, sizeof c->path, NULL);
    return NULL;
}

Test(batch_baseline, each_gpus_first_timing_runs_beside_the_others, .timeout = 60)
{
    batch_opts_t o = {0};
    baselines_t b;
    wanted_baselines(&b, &o, time_when_both_begin);
    first_call_t calls[2] = {{.b = &b, .gpu = 0}, {.b = &b, .gpu = 1}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, ensure_on, &calls[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    cr_assert(met[0] && met[1], "GPU 0's and GPU 1's first timings did not run at once "
                                "(met: %d, %d)", met[0], met[1]);
    for (int i = 0; i < 2; i++)
        cr_assert_not_null(calls[i].given, "GPU %d's baseline given", i);
}

/* A stand-in timing that counts its calls (on the calling thread's own
 * GPU's count), taking a moment, as the timing program does. */
static atomic_int timed_calls[BASELINE_MAX_GPUS];

static int time_and_count(baselines_t *b, int gpu, FILE *out)
{
    (void)b;
    (void)out;
    struct timespec nap = {0, 50 * 1000 * 1000};
    nanosleep(&nap, NULL);
    atomic_fetch_add(&timed_calls[gpu], 1);
    return 0;
}

/* baselines_start_first times every GPU's first baseline in threads of its
 * own, beside the caller (the batch's canary): a worker asking for one
 * afterwards is given it without a timing of its own, and each GPU is timed
 * once. */
Test(batch_baseline, the_first_timings_start_beside_the_caller_and_are_made_once, .timeout = 60)
{
    batch_opts_t o = {0};
    baselines_t b;
    wanted_baselines(&b, &o, time_and_count);
    double t0 = now_seconds();
    baselines_start_first(&b, 3, NULL);
    cr_expect_lt(now_seconds() - t0, 0.04, "the caller waited for the timings");
    cr_expect_eq(b.nfirst, 3);
    char path[PATH_MAX];
    for (int g = 0; g < 3; g++)
        cr_assert_not_null(baselines_ensure(&b, g, path, sizeof path, NULL), "GPU %d's", g);
    baselines_join_first(&b);
    for (int g = 0; g < 3; g++)
        cr_expect_eq(atomic_load(&timed_calls[g]), 1, "GPU %d timed %d times", g,
                     atomic_load(&timed_calls[g]));
    cr_expect_eq(atomic_load(&timed_calls[3]), 0, "a GPU the batch does not have was timed");
    /* none wanted: no thread */
    baselines_t none = {.o = &o, .time_gpu = time_and_count};
    baselines_start_first(&none, 3, NULL);
    cr_expect_eq(none.nfirst, 0);
}

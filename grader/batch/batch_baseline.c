/* batch_baseline.c - a batch's baseline timings on each GPU
 * (batch_baseline.h): timed lazily by the first worker that needs one,
 * re-timed by whichever worker finds it old while the others go on with the
 * previous one, and listed with their spread in RESULTS/perf-baselines.json. */
#include "batch/batch_baseline.h"
#include "batch/gpu_visible.h"
#include "pipeline/perf_baseline.h"
#include "run/sandbox.h"
#include "util/util.h"

#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void file_of(const baselines_t *b, int gpu, char *path, size_t pathlen)
{
    snprintf(path, pathlen, "%s/gpu%d.report", b->dir, gpu);
}

static void remember(baselines_t *b, int gpu, const perf_result_t *r)
{
    pthread_mutex_lock(&b->list_lock);
    if (b->ntimings < BASELINE_MAX_TIMINGS) {
        baseline_timing_t *t = &b->timings[b->ntimings++];
        t->gpu = gpu;
        t->at = (double)time(NULL);
        snprintf(t->device, sizeof t->device, "%s", r->device);
        for (int s = 0; s < r->nshapes && t->nshapes < 8; s++, t->nshapes++) {
            const perf_impl_t *ref = perf_impl(&r->shapes[s], "reference");
            const perf_impl_t *cub = perf_impl(&r->shapes[s], "cublas");
            snprintf(t->shape[t->nshapes], sizeof t->shape[0], "%s", r->shapes[s].shape);
            t->reference[t->nshapes] = ref ? ref->rate : 0;
            t->cublas[t->nshapes] = cub ? cub->rate : 0;
        }
    }
    pthread_mutex_unlock(&b->list_lock);
}

/* Times GPU gpu's baseline with the lab's timing program; 0, or -1 (said on out). */
static int time_one(baselines_t *b, int gpu, FILE *out)
{
    const batch_opts_t *o = b->o;
    grade_opts_t g = {.root = o->root, .lab = o->lab, .backend = BACKEND_NATIVE,
                      .rubric_path = o->rubric_path, .datasets_dir = o->datasets_dir,
                      .gpu_queue = b->queue_dir, .gpu_index = gpu};
    char path[PATH_MAX + 32], err[2048];
    file_of(b, gpu, path, sizeof path);
    perf_result_t *r = calloc(1, sizeof *r);
    char visible[160];
    batch_visible_gpu(gpu, visible, sizeof visible); /* the GPU this batch was given */
    perf_baseline_set_visible(visible);
    int rc = r ? perf_baseline_time(&g, path, r, err, sizeof err) : -1;
    perf_baseline_set_visible(NULL);
    if (rc == 0)
        remember(b, gpu, r);
    else if (out)
        fprintf(out, "cugrade batch: GPU %d: %s; its submissions time the reference and cuBLAS "
                     "themselves\n", gpu, r ? err : "out of memory");
    free(r);
    return rc;
}

void baselines_init(baselines_t *b, const batch_opts_t *o, int ngpu, const char *queue_dir)
{
    memset(b, 0, sizeof *b);
    b->o = o;
    b->time_gpu = time_one;
    b->interval_s = o->perf_retime_s > 0 ? o->perf_retime_s : 120;
    pthread_mutex_init(&b->list_lock, NULL);
    for (int g = 0; g < BASELINE_MAX_GPUS; g++)
        pthread_mutex_init(&b->lock[g], NULL);
    if (ngpu <= 0)
        return;
    grade_opts_t g = {.root = o->root, .lab = o->lab, .backend = BACKEND_NATIVE,
                      .rubric_path = o->rubric_path, .datasets_dir = o->datasets_dir};
    b->wanted = perf_baseline_wanted(&g);
    if (o->shard_count > 0) /* a shard's GPUs are its own (a Slurm task's, on its node) */
        snprintf(b->dir, sizeof b->dir, "%s/.perf-baseline/shard%d", o->out_dir, o->shard_index);
    else
        snprintf(b->dir, sizeof b->dir, "%s/.perf-baseline", o->out_dir);
    snprintf(b->queue_dir, sizeof b->queue_dir, "%s", queue_dir);
    b->timings = calloc(BASELINE_MAX_TIMINGS, sizeof *b->timings);
    if (!b->timings || mkdir_p(b->dir, NULL, 0) != 0)
        b->wanted = 0;
    sandbox_available(); /* its lazy probe made here, before the workers' threads */
}

const char *baselines_ensure(baselines_t *b, int gpu, char *path, size_t pathlen, FILE *out)
{
    if (!b->wanted || gpu < 0 || gpu >= BASELINE_MAX_GPUS)
        return NULL;
    pthread_mutex_lock(&b->lock[gpu]);
    if (b->latest[gpu] == 0 && !b->failed[gpu]) { /* the first: everyone on this GPU waits */
        b->failed[gpu] = b->time_gpu(b, gpu, out) != 0; /* each GPU's beside the others' */
        b->latest[gpu] = now_seconds();
    } else if (!b->failed[gpu] && now_seconds() - b->latest[gpu] >= b->interval_s) {
        b->latest[gpu] = now_seconds(); /* claimed: the others go on with the previous one */
        pthread_mutex_unlock(&b->lock[gpu]);
        int failed = b->time_gpu(b, gpu, out) != 0;
        pthread_mutex_lock(&b->lock[gpu]);
        b->failed[gpu] = failed;
    }
    int failed = b->failed[gpu];
    pthread_mutex_unlock(&b->lock[gpu]);
    if (failed)
        return NULL;
    file_of(b, gpu, path, pathlen);
    return path;
}

typedef struct {
    baselines_t *b;
    int gpu;
} first_arg_t;

static void *time_first(void *arg)
{
    first_arg_t *a = arg;
    char path[PATH_MAX + 32];
    baselines_ensure(a->b, a->gpu, path, sizeof path, a->b->first_out);
    free(a);
    return NULL;
}

void baselines_start_first(baselines_t *b, int ngpu, FILE *out)
{
    b->first_out = out;
    for (int gpu = 0; b->wanted && gpu < ngpu && gpu < BASELINE_MAX_GPUS; gpu++) {
        first_arg_t *a = malloc(sizeof *a);
        if (!a)
            return; /* the workers time the rest, as they come */
        *a = (first_arg_t){.b = b, .gpu = gpu};
        if (pthread_create(&b->first[b->nfirst], NULL, time_first, a) != 0) {
            free(a);
            return;
        }
        b->nfirst++;
    }
}

void baselines_join_first(baselines_t *b)
{
    for (int i = 0; i < b->nfirst; i++)
        pthread_join(b->first[i], NULL);
    b->nfirst = 0;
}

int baselines_start_early(baselines_t *b, const batch_opts_t *o, int ngpu, const char *queue_dir,
                          FILE *out)
{
    const char *first = getenv("CUGRADE_BASELINE_FIRST");
    if (ngpu <= 0 || (first && strcmp(first, "lazy") == 0))
        return 0;
    baselines_init(b, o, ngpu, queue_dir);
    baselines_start_first(b, ngpu, out);
    return 1;
}

int baselines_peek(baselines_t *b, int gpu, char *path, size_t pathlen)
{
    path[0] = '\0';
    if (!b->wanted || gpu < 0 || gpu >= BASELINE_MAX_GPUS)
        return 0;
    if (pthread_mutex_trylock(&b->lock[gpu]) != 0)
        return -1; /* being timed (or looked at: the next job will see it) */
    int state = b->failed[gpu] ? 0 : b->latest[gpu] == 0 ? -1 : 1;
    pthread_mutex_unlock(&b->lock[gpu]);
    if (state == 1)
        file_of(b, gpu, path, pathlen);
    return state;
}

/* The reference's rates on shape s over every timing: spread = max/min - 1. */
static json_object *shape_spread(const baselines_t *b, const char *shape, double *spread)
{
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < b->ntimings; i++)
        for (int s = 0; s < b->timings[i].nshapes; s++)
            if (strcmp(b->timings[i].shape[s], shape) == 0 && b->timings[i].reference[s] > 0) {
                double v = b->timings[i].reference[s];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
    *spread = hi > 0 ? hi / lo - 1 : 0;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "shape", json_object_new_string(shape));
    json_object_object_add(o, "reference_min", json_object_new_double(hi > 0 ? lo : 0));
    json_object_object_add(o, "reference_max", json_object_new_double(hi));
    json_object_object_add(o, "spread", json_object_new_double(*spread));
    return o;
}

static json_object *timing_json(const baseline_timing_t *t)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "gpu", json_object_new_int(t->gpu));
    json_object_object_add(o, "at", json_object_new_double(t->at));
    json_object_object_add(o, "device", json_object_new_string(t->device));
    json_object *shapes = json_object_new_array();
    for (int s = 0; s < t->nshapes; s++) {
        json_object *x = json_object_new_object();
        json_object_object_add(x, "shape", json_object_new_string(t->shape[s]));
        json_object_object_add(x, "reference", json_object_new_double(t->reference[s]));
        json_object_object_add(x, "cublas", json_object_new_double(t->cublas[s]));
        json_object_array_add(shapes, x);
    }
    json_object_object_add(o, "shapes", shapes);
    return o;
}

int baselines_write(baselines_t *b, const char *out_dir, FILE *out, char *err, size_t errlen)
{
    if (b->ntimings == 0)
        return 0;
    json_object *root = json_object_new_object(), *list = json_object_new_array();
    json_object *spreads = json_object_new_array();
    int gpus = 0;
    for (int g = 0; g < BASELINE_MAX_GPUS; g++)
        gpus += b->latest[g] > 0 && !b->failed[g];
    for (int i = 0; i < b->ntimings; i++)
        json_object_array_add(list, timing_json(&b->timings[i]));
    for (int s = 0; s < b->timings[0].nshapes; s++) {
        double spread;
        json_object_array_add(spreads, shape_spread(b, b->timings[0].shape[s], &spread));
        if (out)
            fprintf(out, "perf baseline: %s: the reference timed %d time(s) on %d GPU(s), "
                         "spread %.1f%% (max/min - 1)\n",
                    b->timings[0].shape[s], b->ntimings, gpus, 100 * spread);
    }
    json_object_object_add(root, "interval_s", json_object_new_double(b->interval_s));
    json_object_object_add(root, "timings", list);
    json_object_object_add(root, "spread", spreads);
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY);
    char path[PATH_MAX + 32];
    if (b->o->shard_count > 0) /* the shards of a class share its results folder */
        snprintf(path, sizeof path, "%s/perf-baselines-shard%d.json", out_dir, b->o->shard_index);
    else
        snprintf(path, sizeof path, "%s/perf-baselines.json", out_dir);
    int rc = write_file_atomic(path, text, strlen(text), err, errlen);
    json_object_put(root);
    return rc;
}

void baselines_free(baselines_t *b)
{
    free(b->timings);
    b->timings = NULL;
}

json_object *baselines_load_all(const char *out_dir)
{
    DIR *d = opendir(out_dir);
    if (!d)
        return NULL;
    json_object *all = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "perf-baselines", 14) != 0 || len < 5 ||
            strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", out_dir, e->d_name);
        json_object *one = json_object_from_file(path);
        if (!one)
            continue; /* not ours to judge here: the batch wrote it whole, by rename */
        json_object_object_add(one, "file", json_object_new_string(e->d_name));
        if (!all)
            all = json_object_new_array();
        json_object_array_add(all, one);
    }
    closedir(d);
    return all;
}

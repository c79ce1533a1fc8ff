/* batch.h - `cugrade batch`: grade every submission of a class folder, each
 * in a child `cugrade run`, keep per-student results under RESULTS_DIR, skip
 * unchanged ones on --resume, and rebuild gradebook.csv and summary.json. */
#ifndef CUGRADE_BATCH_H
#define CUGRADE_BATCH_H

#include <limits.h>
#include <stdio.h>

#define BATCH_MAX_ONLY 256

typedef struct {
    const char *root;            /* the cugrade tree */
    const char *self_exe;        /* bin/cugrade, run once per submission */
    const char *lab;
    const char *submissions_dir; /* one sub-folder per student id */
    const char *out_dir;         /* RESULTS_DIR */
    const char *backend;         /* "auto", "emu" or "gpu" */
    int checks;                  /* --checks all (1) or none (0) */
    int jobs;                    /* submissions graded at once; 0: cpu_count() */
    double timeout_s;            /* wall-clock limit per submission */
    double budget_s;             /* --budget-s for each `cugrade run` (0: the rubric's) */
    const char *gpu_queue;       /* timing queues' folder; NULL: RESULTS_DIR/.gpu-queue */
    int resume;                  /* skip submissions whose inputs are unchanged */
    const char *only[BATCH_MAX_ONLY]; /* --only IDs */
    int nonly;
    const char *datasets_dir;    /* NULL: the lab's shipped datasets */
    const char *rubric_path;     /* NULL: <root>/rubric.json */
    const char *hidden_seed;     /* --hidden-seed FILE (NULL: as cugrade run finds it) */
    double perf_retime_s;        /* --perf-retime-s: the baseline's interval (0: 120 s) */
    int shard_index, shard_count; /* --shard K/N: only shard K of N (batch_shard.c); N 0: all */
    int no_class_files;          /* --no-class-files: no gradebook/class files at the end */
    /* set by batch_run: */
    char hidden_digest[65];      /* the secret's digest, in every submission's inputs hash */
    char hidden_set_dir[PATH_MAX]; /* the hidden datasets made once for the batch ("": none) */
} batch_opts_t;

/* Runs the batch, printing one line per finished submission and a summary to
 * out. Returns 0 when every selected submission has a results.json, 2
 * otherwise, 64 for an unknown --only id. */
int batch_run(const batch_opts_t *o, FILE *out);

/* Rebuilds RESULTS_DIR/gradebook.csv, summary.json, class.html and every
 * RESULTS_DIR/<id>/report.html from every RESULTS_DIR/<id>/results.json and
 * prints the class summary to out (if not NULL). In batch_class.c. */
int batch_write_class_files(const char *out_dir, FILE *out, char *err, size_t errlen);

/* One submission's result for the terminal: "82.5/90" or "could not grade
 * (why)" (batch_class.c). */
int batch_row_line(const char *results_path, char *buf, size_t buflen);

/* ---- shards (batch_shard.c) ---- */

/* The shard of the class's index-th submission (batch_list's sorted order)
 * among count shards: round robin, so shards differ by one at most. */
int batch_shard_of(int index, int count);

/* Parses --shard's "K/N" (0 <= K < N <= BATCH_MAX_SHARDS). 0, or -1. */
#define BATCH_MAX_SHARDS 100000
int batch_parse_shard(const char *text, int *k, int *n);

/* Under --shard, keeps in names/ids (batch_list's) only the entries of
 * o's shard, frees the others, says so on out, and returns the new count. */
int batch_keep_shard(const batch_opts_t *o, char **names, char **ids, int n, FILE *out);

/* ---- --resume's test, for --status and --slurm (batch.c) ---- */

/* The inputs-hash part every submission of o's batch shares (the secret is
 * read, or made if it is the default one). -1, said on out, if it cannot be. */
int batch_resume_key(batch_opts_t *o, char common[65], FILE *out);

/* 1 when SUBMISSIONS_DIR/name (id) has a results.json in RESULTS_DIR whose
 * inputs hash matches: the submissions --resume skips. */
int batch_up_to_date(const batch_opts_t *o, const char *common, const char *name, const char *id);

/* 1 when id is one of --only's (or there is no --only). */
int batch_selected(const batch_opts_t *o, const char *id);

#endif

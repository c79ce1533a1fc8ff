/* batch.h - `cugrade batch`: grade every submission of a class folder, each
 * in a child `cugrade run`, keep per-student results under RESULTS_DIR, skip
 * unchanged ones on --resume, and rebuild gradebook.csv and summary.json. */
#ifndef CUGRADE_BATCH_H
#define CUGRADE_BATCH_H

#include <stdio.h>

#include "batch/batch_opts.h"

/* Runs the batch, printing one line per finished submission and a summary to
 * out. Returns 0 when every selected submission has a results.json, 2
 * otherwise, 64 for an unknown --only id. */
int batch_run(const batch_opts_t *o, FILE *out);
/* The batch is being stopped (a fatal signal's handler, before it kills the
 * children): a worker whose child dies from now on writes nothing for it, so
 * an interrupted student gets no verdict (a --resume grades it again).
 * Async-signal-safe. */
void batch_stopping(void);

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

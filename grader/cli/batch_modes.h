/* batch_modes.h - the modes of `cugrade batch` besides grading here:
 * --slurm (a job array on a cluster), --status and --merge; their options,
 * their usage text and which one runs (cmd_batch_modes.c). */
#ifndef CUGRADE_BATCH_MODES_H
#define CUGRADE_BATCH_MODES_H

#include "batch/slurm.h"

#include <stdio.h>

/* Takes one of the modes' options (getopt's c: 'U' --slurm, 'X' --sbatch,
 * 'n' --shards, 'T' --status, 'M' --merge). -1 (said on stderr) when bad. */
int batch_mode_option(int c, const char *arg, slurm_opts_t *s);

/* Checks that the options go together, given nargs operands left (0 or 1:
 * SUBMISSIONS_DIR). -1 (said on stderr) when they do not. */
int batch_mode_check(const batch_opts_t *o, slurm_opts_t *s, int nargs);

/* 1 when the command line asks for --slurm, --status or --merge. */
int batch_mode_wanted(const slurm_opts_t *s);

/* Runs that mode; its exit status. */
int batch_mode_run(batch_opts_t *o, slurm_opts_t *s, FILE *out);

/* The modes' part of `cugrade batch --help`. */
void batch_mode_usage(FILE *to);

#endif

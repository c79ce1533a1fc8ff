/* group.h - one process of the lab driver's list mode over some of a
 * program's runs (group.c); private to grader/run/runs*.c. */
#ifndef CUGRADE_GROUP_H
#define CUGRADE_GROUP_H

#include "run/ds_run.h"

/* One process of the driver's list mode over some of the runs. */
typedef struct {
    char dir[PATH_MAX - 64];       /* its working folder, holding the run folders */
    char list[PATH_MAX];           /* the list, next to the program: readable, not writable */
    char report[PATH_MAX];         /* its report channel: markers and the emulator's lines */
} group_t;

/* The group of how's runs: its folders made; -1 when how is not grouped (or
 * the lab is program-style), or the folder cannot be made. */
int group_open(group_t *g, const runs_how_t *how);

/* Writes g's list of runs[index[0..n)]: a line a dataset, LIMIT_S, "--" and
 * the run's arguments, tab-separated; with out_suffix, each run's output
 * path with it appended. -1 when an argument cannot be listed or the list
 * not written. */
int group_write_list(const group_t *g, const ds_run_t *runs, const int *index, int n,
                     const char *out_suffix);

#define GROUP_ARGV_MAX 64 /* a group process's arguments, the tail's too */

/* A group process's spec (argv and shown are its storage): its limit is the
 * sum of its datasets' (the watchdog stops each at its own) and some slack,
 * and with the timing tail (tail) the tail's; its output cap the sum of
 * theirs, or more. */
run_spec_t group_spec(const group_t *g, const ds_run_t *runs, const int *index, int n,
                      const runs_how_t *how, int tail, char *argv[GROUP_ARGV_MAX],
                      const char *shown[2]);

#endif

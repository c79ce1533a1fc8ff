/* sandbox.h - isolation of student programs. Where bubblewrap works, a
 * student run sees a read-only system, a private /tmp, no network, its own
 * pid namespace (killing bwrap kills every process inside), only its own run
 * folder writable, and neither the datasets (expected outputs) nor the
 * results folder. Otherwise (no bwrap, or CUGRADE_SANDBOX=none) the run gets
 * rlimits and a new session only. */
#ifndef CUGRADE_SANDBOX_H
#define CUGRADE_SANDBOX_H

#define SANDBOX_FSIZE_LIMIT (64L * 1024 * 1024) /* fallback: largest file a run may write */
#define SANDBOX_NPROC_LIMIT 512L                /* fallback: processes (not for root) */

/* 1 if bwrap is on PATH, not disabled, and a trial run succeeds (cached). */
int sandbox_available(void);

/* "sandbox: bubblewrap" or "sandbox: none (...)": for the report. */
const char *sandbox_description(void);

/* Folders a student run must not see (datasets, results); copied; up to 16. */
void sandbox_hide_dir(const char *dir);
void sandbox_set_results_dir(const char *dir);

/* The argv that runs program_argv inside bwrap with cwd as its working and
 * only writable folder (NULL-terminated, malloc'd, free with
 * sandbox_argv_free), or NULL when the sandbox is unavailable or cwd is
 * NULL. Call in the parent, before fork. */
char **sandbox_wrap_argv(char *const *program_argv, const char *cwd);
void sandbox_argv_free(char **argv);

/* In the child, fallback only: rlimits on processes and file size. */
void sandbox_apply_rlimits(void);

#endif

/* sandbox.h - isolation of student code (docs/security.md), in two tiers.
 *
 * The first, where bubblewrap works: a student run sees only what it needs:
 * the system folders (/usr, /lib*, /etc, ...) and the program read-only, a
 * private /tmp, its own run folder writable, the GPU's devices; no network,
 * its own pid, IPC and UTS namespaces (killing bwrap kills every process
 * inside). The checkout's reference/ and datasets/, the results, other
 * submissions and the TA's home are not there at all: an allow-list, not a
 * deny-list. Inside, bin/cugrade-jail (grader/jail/) closes every
 * descriptor it was not given, drops root for a uid of the grading's own
 * (sandbox_uid) in a user namespace of its own, every capability, sets
 * no_new_privs and a seccomp allow-list, and only then runs the program.
 *
 * The second, as root where bubblewrap cannot run (Docker's default seccomp
 * profile refuses its namespaces): the jail alone, the same steps but the
 * namespaces; the grading's uid reads what others may read, and the
 * course's secrets are the grader's own (0700, 0600).
 *
 * Neither (not root, no bubblewrap): student code is not run, and the
 * grading is a grader fault. CUGRADE_SANDBOX=none (explicit, and named in
 * the report) runs it with rlimits and a new session only; =bwrap or =uid
 * asks for one tier. */
#ifndef CUGRADE_SANDBOX_H
#define CUGRADE_SANDBOX_H

#include "run/sandbox_jail.h"  /* sandbox_seccomp_off, sandbox_apply_rlimits */
#include "run/sandbox_tier.h"  /* the tier and what it gives and guards */
#include "run/sandbox_types.h"

/* Folders a student run must not see even where they lie inside a folder it
 * is shown (datasets, results); copied; up to 64. A results folder that is
 * itself a shown folder (the submission's own, to its compiler) stays
 * shown, read-only; a hidden one (sandbox_hide_dir) never is. */
void sandbox_hide_dir(const char *dir);
void sandbox_set_results_dir(const char *dir);

/* A folder of the grader's that a shown folder would reveal, covered like
 * a results folder: a grading's scratch folder, where the reports lie, when
 * the submission's folder shown to its compiler is /tmp itself. */
void sandbox_cover_dir(const char *dir);

/* The argv that runs program_argv sandboxed in cwd: in the first tier,
 * inside bwrap, with write_dir (or, when NULL, cwd) its only writable
 * folder, program_argv[0] and ro_paths (NULL-terminated; may be NULL)
 * read-only, besides the system, the CUDA toolkit and CUGRADE_SANDBOX_RO's
 * paths; in the second, through the jail alone. how: the jail's (NULL: a
 * program's policy, no descriptor kept). NULL-terminated, malloc'd, free
 * with sandbox_argv_free; NULL when no tier runs, or cwd is NULL in the
 * first. Call in the parent, before fork. */
char **sandbox_wrap_argv(char *const *program_argv, const char *cwd, const char *write_dir,
                         const char *const *ro_paths, const sandbox_how_t *how);
void sandbox_argv_free(char **argv);

/* Whether the sandbox shows /dev/<name>: the NVIDIA driver's files, and of
 * the GPUs' own (nvidia0, nvidia1, ...) only only_gpu's when it is not NULL.
 * A run shows only $CUGRADE_GPU_NODE's GPU (a batch sets it for each
 * child: its worker's GPU) when that is a GPU's device file, and unsets
 * CUDA_VISIBLE_DEVICES inside, where that GPU is device 0. The driver then
 * starts that GPU only, not every GPU of the host, in each process (on a
 * 4-GPU H200 host, 64 processes starting at once took a mean 7.4 s each to
 * start the driver, 1.4 s with one device file: docs/benchmarks.md); and a
 * program that got past the allow-list (which refuses setenv and open)
 * still could not reach another worker's GPU. */
int sandbox_device_shown(const char *name, const char *only_gpu);

/* Tests only: the folder whose nvidia* files the sandbox binds, instead of
 * /dev (NULL: /dev again). */
void sandbox_use_device_dir(const char *dir);

#endif

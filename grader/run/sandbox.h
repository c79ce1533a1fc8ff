/* sandbox.h - isolation of student programs. Where bubblewrap works, a
 * student run sees only what it needs: the system folders (/usr, /lib*,
 * /etc, ...) and the program read-only, a private /tmp, its own run folder
 * writable, the GPU's devices; no network, its own pid, IPC and UTS
 * namespaces (killing bwrap kills every process inside). The checkout's
 * reference/ and datasets/, the results, other submissions and the TA's
 * home are not there at all: an allow-list, not a deny-list. Otherwise (no
 * bwrap, or CUGRADE_SANDBOX=none) the run gets rlimits and a new session
 * only. */
#ifndef CUGRADE_SANDBOX_H
#define CUGRADE_SANDBOX_H

#define SANDBOX_FSIZE_LIMIT (64L * 1024 * 1024) /* largest file a run may write */
#define SANDBOX_NPROC_LIMIT 512L                /* fallback: processes (not for root) */
#define SANDBOX_TMP_BYTES "67108864"            /* the size of its private /tmp (a tmpfs) */

/* The descriptor on which a sandboxed run says that it started: inside the
 * sandbox, once bwrap has set it up, /bin/sh writes one byte to it and runs
 * the program with it closed (the program never has it). A run that ends by
 * itself with no byte there never got past bwrap's setup (a namespace, a
 * mount it could not make): the machine's fault, whatever bwrap's exit
 * status, which a program could also exit with (runner.h, sandbox_failed). */
#define SANDBOX_STARTED_FD 8
#define SANDBOX_STARTED_FD_TEXT "8"

/* 1 if bwrap is on PATH, not disabled, and a trial run succeeds (cached). */
int sandbox_available(void);

/* "sandbox: bubblewrap" or "sandbox: none (...)": for the report. */
const char *sandbox_description(void);

/* Folders a student run must not see even where they lie inside a folder it
 * is shown (datasets, results); copied; up to 64. A results folder that is
 * itself a shown folder (the submission's own, to its compiler) stays
 * shown, read-only; a hidden one (sandbox_hide_dir) never is. */
void sandbox_hide_dir(const char *dir);
void sandbox_set_results_dir(const char *dir);

/* The argv that runs program_argv inside bwrap in cwd, with write_dir (or,
 * when NULL, cwd) its only writable folder, program_argv[0] and ro_paths
 * (NULL-terminated; may be NULL) read-only, besides the system, the CUDA
 * toolkit and CUGRADE_SANDBOX_RO's paths (NULL-terminated, malloc'd, free
 * with sandbox_argv_free), or NULL when the sandbox is unavailable or cwd is
 * NULL. Call in the parent, before fork. */
char **sandbox_wrap_argv(char *const *program_argv, const char *cwd, const char *write_dir,
                         const char *const *ro_paths);
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

/* In the child, fallback only: rlimits on processes and file size. */
void sandbox_apply_rlimits(void);

#endif

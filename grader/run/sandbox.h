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

#define SANDBOX_FSIZE_LIMIT (64L * 1024 * 1024) /* largest file a run may write */
#define SANDBOX_NPROC_LIMIT 512L                /* processes of the sandbox's uid (not root's) */
#define SANDBOX_TMP_BYTES "67108864"            /* the size of its private /tmp (a tmpfs) */

/* The descriptor on which a sandboxed run says that it started: once bwrap
 * and the jail have set everything up, the jail writes one byte to it and
 * runs the program with it closed (the program never has it). A run that
 * ends by itself with no byte there never got past the sandbox's setup (a
 * namespace, a mount, a uid it could not make): the machine's fault,
 * whatever the exit status, which a program could also exit with
 * (runner.h, sandbox_failed). */
#define SANDBOX_STARTED_FD 8
#define SANDBOX_STARTED_FD_TEXT "8"

typedef enum {
    SANDBOX_BWRAP,  /* the first tier: bubblewrap, and the jail inside it */
    SANDBOX_UID,    /* the second: the jail alone, as root */
    SANDBOX_OFF,    /* CUGRADE_SANDBOX=none: none, on purpose */
    SANDBOX_MISSING /* no tier can run here: a grader fault */
} sandbox_tier_t;

/* The best tier whose trial run of `true` succeeds here, as
 * CUGRADE_SANDBOX allows (probed once). */
sandbox_tier_t sandbox_tier(void);

/* The tier probed so far, without a lock (SANDBOX_MISSING before the
 * probe): for the runner's child, where a lock another thread held at the
 * fork is never let go. */
sandbox_tier_t sandbox_tier_probed(void);

/* 1 if the first tier runs here (its view: what a program cannot see). */
int sandbox_available(void);

/* "sandbox: bubblewrap", "sandbox: uid (...)", "sandbox: none (...)": the
 * report's words for the tier. */
const char *sandbox_description(void);

/* The uid and gid student code runs as: as root, SANDBOX_UID_BASE (or
 * $CUGRADE_SANDBOX_UID_BASE) plus the grading's pid, unique among the
 * gradings running on the machine, so that no two submissions share one;
 * otherwise the grader's own uid (bubblewrap's user namespace). */
#define SANDBOX_UID_BASE 1600000000UL
unsigned sandbox_uid(void);

/* 1 when the TA's CUGRADE_SECCOMP=off leaves the jail's seccomp filter out
 * (every other layer stays, and the report says so): for a machine whose
 * GPU driver makes a call the allow-list lacks, until the list has it
 * (tools/syscalls_used.sh finds which). */
int sandbox_seccomp_off(void);

/* In the runner's child, before exec: as root, in either tier, dir (the
 * run's writable folder) becomes the sandbox uid's, and with_contents what
 * the grader put in it (a program's inputs and datasets' folders; not a
 * compiler's scratch folder, where the reports of other runs lie). 0, or
 * -1 (errno). */
int sandbox_give_folder(const char *dir, int with_contents);

/* In the runner's child, second tier: the folders above path that are the
 * grader's own temporary ones (0700) let the sandbox's gid through (g+x),
 * so that the program and its folder can be reached, and nothing else. */
void sandbox_open_way(const char *path);

/* Second tier, as root: dir (root's) keeps its owner's permissions only
 * (0700): a course's folder that no view hides from the sandbox's uid (the
 * reference, the hidden set's secret, a batch's results and class folder).
 * What student code must read of it is copied (build/readable_copy.h).
 * Elsewhere nothing: the first tier's view hides it. */
void sandbox_guard(const char *dir);

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

/* How a run is wrapped besides its paths: which policy the jail loads,
 * which descriptors the program keeps besides 0, 1 and 2 (the report
 * channel, the GPU's turns), and a folder shown at another's place. */
typedef struct {
    int tool;        /* a compiler or compute-sanitizer: the wider policy (jail/policy.h) */
    const int *keep;
    int nkeep;
    const char *copy_from, *copy_at; /* first tier: copy_from shown read-only at copy_at (a
                                      * copy the sandbox's uid can read of a folder it cannot;
                                      * NULL: none) */
} sandbox_how_t;

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

/* In the child of a sandboxed run: rlimits on processes and file size. */
void sandbox_apply_rlimits(void);

#endif

/* sandbox_types.h - what the sandbox's layers share (run/sandbox.h is the
 * API; sandbox_jail.h, sandbox_argv.h, sandbox_tier.h and sandbox.c are
 * its layers, lowest first): the limits a sandboxed run gets, the
 * descriptor of its start byte, the tiers, and how a run is wrapped. Types
 * and constants only. */
#ifndef CUGRADE_SANDBOX_TYPES_H
#define CUGRADE_SANDBOX_TYPES_H

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

#define SANDBOX_UID_BASE 1600000000UL /* the sandbox's uids from here (sandbox_uid) */

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
    int no_gpu; /* no /dev/nvidia* at all (the executor's programs: run_spec_t no_gpu) */
} sandbox_how_t;

#endif

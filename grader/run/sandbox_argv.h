/* sandbox_argv.h - the pieces of a sandboxed command line (the sandbox's
 * second layer, above sandbox_jail.h; run/sandbox.h is the API): bwrap's
 * namespaces, the system folders, the jail and its arguments; and the trial
 * run of `true` through them that probes a tier. Each argv_add_* appends
 * strdup'd strings to argv[*n], up to SANDBOX_MAX_ARGS - 1. */
#ifndef CUGRADE_SANDBOX_ARGV_H
#define CUGRADE_SANDBOX_ARGV_H

#include "run/sandbox_types.h"

#define SANDBOX_MAX_ARGS 512

/* Inside bubblewrap the jail is /cugrade-jail, whatever its place outside:
 * the view shows nothing of the checkout it lies in. */
#define JAIL_INSIDE "/cugrade-jail"

/* The system: programs, libraries, the dynamic linker's configuration
 * (NULL-terminated; SANDBOX_SYSTEM_DIRS of them). */
#define SANDBOX_SYSTEM_DIRS 8
extern const char *const sandbox_system_dirs[SANDBOX_SYSTEM_DIRS + 1];

void argv_add(char **argv, int *n, const char *s);

/* how (--ro-bind, --bind, --dev-bind), then path twice: shown at its place. */
void argv_add_mount(char **argv, int *n, const char *how, const char *path);

/* bwrap itself and its namespaces, a fresh /dev, /proc and a small /tmp. */
void argv_add_bwrap(char **argv, int *n, const char *bwrap);

/* The system folders, read-only (a symlink, as merged /usr has, as one). */
void argv_add_system(char **argv, int *n);

/* The jail (its path outside) shown at JAIL_INSIDE. */
void argv_add_jail_mount(char **argv, int *n, const char *jail);

/* The jail's command line, up to its "--" (sandbox_jail.h): inside bwrap
 * (JAIL_INSIDE, a user namespace of its own when userns) or alone. */
void argv_add_jail(char **argv, int *n, const char *jail, int in_bwrap, int userns,
                   const sandbox_how_t *how);

/* Runs `true` in the sandbox, through bwrap (with the options option_args,
 * NULL-terminated, may be NULL) when bwrap is not NULL, and the jail: 1 if
 * it exits 0 within 10 s. Spawned here, not through runner.c, which is
 * built on top of the sandbox. */
int sandbox_trial_run(const char *bwrap, const char *jail, int userns,
                      const char *const *option_args);

#endif

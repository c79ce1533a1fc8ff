/* sandbox_tier.h - which tier runs here (the sandbox's third layer, above
 * sandbox_argv.h and sandbox_jail.h; run/sandbox.h includes it for its
 * callers): the probe, the report's words, what each tier gives or guards,
 * and, for the view (sandbox.c), the paths and the choice the probe found
 * (tier_*, valid once sandbox_tier() has returned SANDBOX_BWRAP or
 * SANDBOX_UID). */
#ifndef CUGRADE_SANDBOX_TIER_H
#define CUGRADE_SANDBOX_TIER_H

#include "run/sandbox_types.h"

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
unsigned sandbox_uid(void);

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


const char *tier_bwrap_path(void); /* bubblewrap, absolute (first tier) */
const char *tier_jail_path(void);  /* bin/cugrade-jail, absolute */
int tier_jail_userns(void);        /* root in bubblewrap: the jail makes a user namespace */

/* 1 if this bwrap has --unsetenv (0.5 and later); probed once. */
int tier_bwrap_unsets(void);

#endif

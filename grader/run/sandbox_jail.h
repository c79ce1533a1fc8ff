/* sandbox_jail.h - bin/cugrade-jail as the sandbox starts it (run/sandbox.h
 * is the API; this is sandbox.c's own): where the jail is, the uid it drops
 * a grading's code to, and its command line. */
#ifndef CUGRADE_SANDBOX_JAIL_H
#define CUGRADE_SANDBOX_JAIL_H

#include <stddef.h>

#include "run/sandbox.h"

/* bin/cugrade-jail, absolute, into path: beside the running program
 * (bin/cugrade), else in the tree's bin/ (cugrade_root), else in the
 * working folder's bin/ (the test programs, run from the tree's root).
 * 1 if found. */
int jail_find(char *path, size_t len);

/* Once, in the probe (before any fork): the grading's uid (as root,
 * SANDBOX_UID_BASE or $CUGRADE_SANDBOX_UID_BASE plus the pid; else the
 * grader's own) and the resolved prefix of the grader's temporary folders,
 * so that a forked child (the runner's, which gives folders) has the
 * parent's, whatever its own pid and TMPDIR. */
void jail_settle(void);

/* The jail's command line up to and with its "--" (NULL-terminated,
 * strdup'd; free each and the array): as root, the uid it drops to and,
 * with userns, a user namespace; how's policy and kept descriptors; the
 * start's byte when how is not NULL (a trial has no start pipe). */
char **jail_args(const char *jail, int userns, const sandbox_how_t *how);

#endif

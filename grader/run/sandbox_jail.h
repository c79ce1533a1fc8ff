/* sandbox_jail.h - bin/cugrade-jail as the sandbox starts it (run/sandbox.h
 * is the API; this is the sandbox's own lowest layer, which calls nothing
 * above it): where the jail is, the uid it drops a grading's code to, its
 * command line and the folders that uid is given. */
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

/* The grading's uid as jail_settle set it (sandbox_uid, once probed). */
unsigned jail_uid(void);

/* As root, in the runner's child: dir (and with_contents, what lies in it)
 * becomes the grading uid's (sandbox_give_folder, which checks the tier).
 * 0, or -1 (errno). */
int jail_give_folder(const char *dir, int with_contents);

/* As root, in the runner's child, second tier: the folders above path that
 * are this grading's own temporary ones let its gid through
 * (sandbox_open_way, which checks the tier). */
void jail_open_way(const char *path);

#endif

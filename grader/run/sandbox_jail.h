/* sandbox_jail.h - bin/cugrade-jail as the sandbox starts it (the sandbox's
 * lowest layer, which calls nothing above it; run/sandbox.h includes it for
 * sandbox_seccomp_off and sandbox_apply_rlimits): where the jail is, the
 * uid it drops a grading's code to, its command line, the folders that uid
 * is given, and the rlimits. */
#ifndef CUGRADE_SANDBOX_JAIL_H
#define CUGRADE_SANDBOX_JAIL_H

#include <stddef.h>

#include "run/sandbox_types.h"

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

/* 1 when the TA's CUGRADE_SECCOMP=off leaves the jail's seccomp filter out
 * (every other layer stays, and the report says so): for a machine whose
 * GPU driver makes a call the allow-list lacks, until the list has it
 * (tools/syscalls_used.sh finds which). */
int sandbox_seccomp_off(void);

/* In the child of a sandboxed run: rlimits on processes and file size (the
 * sandbox's 64 MiB, or file_limit when larger: a dataset whose output needs
 * more). */
void sandbox_apply_rlimits(size_t file_limit);

#endif

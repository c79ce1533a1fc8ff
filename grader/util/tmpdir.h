/* tmpdir.h - the grader's temporary folders under $TMPDIR (else /tmp),
 * and the removal of those a killed grading left behind.
 *
 * Each folder made here holds an owner file, .cugrade-owner, naming the
 * lock file of the process that made it (<TMPDIR>/cugrade-lock-XXXXXX, one
 * a process, locked with flock while it lives). A grading killed outright
 * (SIGKILL: a Slurm task's time limit, the OOM killer, a TA's kill -9)
 * removes nothing: its scratch folder and its hidden datasets stay. The
 * kernel drops a dead process's locks, so the next `cugrade run` or `batch`
 * on the machine finds those folders by their owner's free (or missing)
 * lock and removes them, and the lock files of the dead (tmp_sweep). A
 * folder without an owner file (an older cugrade's, a test's, one kept with
 * --keep-scratch) is never touched, nor anything not the user's or not
 * named "cugrade-"; nor are they where no lock can be had (the folders then
 * stay unowned). A lock file is locked before it gets its name, and a
 * folder named in no owner file until its own is written, so a sweep never
 * takes a live folder for a dead one. */
#ifndef CUGRADE_TMPDIR_H
#define CUGRADE_TMPDIR_H

#include <stddef.h>

#define TMP_OWNER_FILE ".cugrade-owner"

/* The folder temporary folders go in: $TMPDIR, else /tmp. */
const char *tmp_root(void);

/* Makes <tmp_root>/cugrade-<kind>XXXXXX (mkdtemp; kind may be "") into
 * path, owned by this process (rm_rf removes it: the lock is the process's,
 * not the folder's). 0, or -1 with err set. */
int tmp_dir_make(const char *kind, char *path, size_t pathlen, char *err, size_t errlen);

/* Makes the folder path (mode 0700, not there before), owned by this
 * process (a sibling of a folder from tmp_dir_make). 0, or -1 with err set. */
int tmp_dir_make_at(const char *path, char *err, size_t errlen);

/* 1 if dir's owner file names this process's lock (a forked child's too:
 * it reads what the parent wrote, without a lock of its own). */
int tmp_dir_is_mine(const char *dir);

/* Leaves the folder where it is, no longer owned: no sweep removes it. */
void tmp_dir_keep(const char *path);

/* Removes the folders of tmp_root() whose owner is gone, and the lock
 * files of the dead; returns how many folders. */
int tmp_sweep(void);

/* Set (to 1) in the environment of a batch's `cugrade run` children: the
 * batch swept at its start, so its children need not sweep again. */
#define TMP_SWEPT_ENV "CUGRADE_TMP_SWEPT"

#endif

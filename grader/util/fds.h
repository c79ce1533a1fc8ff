/* fds.h - closing the descriptors a child process was not meant to have:
 * a thread of the grader may have opened one without O_CLOEXEC just before
 * another thread forked (runner.c), and a sandbox must not carry it in
 * (bin/cugrade-jail, grader/jail/). */
#ifndef CUGRADE_FDS_H
#define CUGRADE_FDS_H

/* Closes every descriptor but 0, 1, 2 and keep[0..nkeep) (close_range,
 * or one by one where the kernel lacks it). Safe between fork and exec. */
void close_fds_except(const int *keep, int nkeep);

/* The lowest descriptor above 2 that is open and not in keep, as
 * /proc/self/fd lists them; -1 if none (or no /proc to ask). */
int fd_left_open(const int *keep, int nkeep);

#endif

/* batch_stop.h - what a batch stopped by a signal (Ctrl-C, a Slurm task's
 * end) says before it ends: how many were graded, and the command that
 * grades the rest (the same with --resume). */
#ifndef CUGRADE_BATCH_STOP_H
#define CUGRADE_BATCH_STOP_H

/* At the start, before any handler is installed: the program as typed and
 * the command's words (from "batch" on), from which the --resume command
 * is made (shell-quoted). */
void batch_stop_prepare(const char *program, int argc, char *const *argv);

/* As the batch goes: how many it is to grade, and one more graded. */
void batch_stop_set_total(int total);
void batch_stop_graded_one(void);

/* In the signal handler (async-signal-safe: write(2) only): the line
 * "cugrade batch: stopped by signal 2 after 3 of 7 gradings; to grade the
 * rest: <command> --resume" on fd. */
void batch_stop_say(int fd, int sig);

#endif

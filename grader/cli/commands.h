/* commands.h - the subcommands of bin/cugrade, one file each (cmd_*.c). */
#ifndef CUGRADE_COMMANDS_H
#define CUGRADE_COMMANDS_H

#define CUGRADE_VERSION "0.1.0"

/* Exit statuses shared by every subcommand. */
#define EXIT_GRADED 0        /* graded, whatever the score */
#define EXIT_USAGE 64        /* bad command line */
#define EXIT_CANNOT_GRADE 2  /* bad rubric, missing datasets, broken lab, ... */

int cmd_run(int argc, char **argv);
int cmd_dataset(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_batch(int argc, char **argv);

/* The cugrade tree: $CUGRADE_ROOT, else the folder above bin/cugrade. */
const char *cugrade_root(void);

#endif

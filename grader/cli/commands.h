/* commands.h - the subcommands of bin/cugrade, one file each (cmd_*.c). */
#ifndef CUGRADE_COMMANDS_H
#define CUGRADE_COMMANDS_H

#include "util/cugrade.h"

int cmd_run(int argc, char **argv);
int cmd_dataset(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_leaderboard(int argc, char **argv);
int cmd_rescore(int argc, char **argv);
int cmd_export(int argc, char **argv);


#endif

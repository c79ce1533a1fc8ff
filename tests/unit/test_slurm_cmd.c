/* test_slurm_cmd.c - the pieces of `cugrade batch --slurm` that need no
 * Slurm: shell quoting, --array's list, the default shard count, the task's
 * and the merge job's command lines, and reading Slurm's answers (sbatch
 * --parsable's job id, sacct's and scontrol's task states) from fake
 * sbatch/sacct/scontrol scripts on PATH. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/slurm.h"
#include "util/util.h"

static char *quoted(const char *arg)
{
    strbuf_t sb = {0};
    shell_quote(&sb, arg);
    return sb_detach(&sb);
}

Test(slurm_cmd, shell_quote_leaves_plain_words_and_quotes_the_rest)
{
    const char *cases[][2] = {{"/abs/path-1_2.x", "/abs/path-1_2.x"},
                              {"--x=a,b:c@d%e+f", "--x=a,b:c@d%e+f"},
                              {"", "''"},
                              {"two words", "'two words'"},
                              {"it's", "'it'\\''s'"},
                              {"$HOME;rm -rf /", "'$HOME;rm -rf /'"},
                              {"a\"b`c`", "'a\"b`c`'"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *q = quoted(cases[i][0]);
        cr_assert_str_eq(q, cases[i][1], "quoting [%s]", cases[i][0]);
        free(q);
    }
}

Test(slurm_cmd, shell_quote_round_trips_through_sh)
{
    const char *nasty = "it's a \"test\" with $VAR, `cmd`, \\ and a\ttab";
    strbuf_t cmd = {0};
    sb_append(&cmd, "printf %s ");
    shell_quote(&cmd, nasty);
    FILE *p = popen(sb_str(&cmd), "r");
    cr_assert_not_null(p);
    char got[256] = "";
    size_t n = fread(got, 1, sizeof got - 1, p);
    got[n] = '\0';
    pclose(p);
    cr_assert_str_eq(got, nasty);
    sb_free(&cmd);
}

static char *spec_of(const char *marks)
{
    unsigned char todo[64];
    int n = (int)strlen(marks);
    for (int i = 0; i < n; i++)
        todo[i] = marks[i] == '1';
    strbuf_t sb = {0};
    slurm_array_spec(todo, n, &sb);
    return sb_detach(&sb);
}

Test(slurm_cmd, array_spec_lists_the_marked_shards_as_ranges)
{
    const char *cases[][2] = {{"111", "0-2"}, {"1", "0"}, {"010", "1"}, {"1011", "0,2-3"},
                              {"0110111001", "1-2,4-6,9"}, {"000", ""}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *s = spec_of(cases[i][0]);
        cr_assert_str_eq(s, cases[i][1], "shards %s", cases[i][0]);
        free(s);
    }
}

Test(slurm_cmd, default_shards_are_eight_submissions_each_at_most_256)
{
    cr_assert_eq(slurm_default_shards(0), 1);
    cr_assert_eq(slurm_default_shards(1), 1);
    cr_assert_eq(slurm_default_shards(8), 1);
    cr_assert_eq(slurm_default_shards(9), 2);
    cr_assert_eq(slurm_default_shards(200), 25);
    cr_assert_eq(slurm_default_shards(2048), 256);
    cr_assert_eq(slurm_default_shards(100000), 256);
}

static batch_opts_t task_opts(const char *backend)
{
    static const char *only[] = {"alice", "o'brien"};
    batch_opts_t o = {.root = "/srv/course/cugrade", .self_exe = "/srv/course/cugrade/bin/cugrade",
                      .lab = "lab3", .submissions_dir = "/shared/subs dir", .out_dir = "/shared/out",
                      .backend = backend, .checks = 0, .timeout_s = 300, .budget_s = 45,
                      .rubric_path = "/srv/course/rubric.json", .hidden_seed = "/srv/course/seed"};
    o.only[0] = only[0], o.only[1] = only[1], o.nonly = 2;
    return o;
}

Test(slurm_cmd, the_task_command_has_absolute_paths_and_the_batch_options)
{
    batch_opts_t o = task_opts("emu");
    char *cmd = slurm_task_command(&o, 5);
    const char *want[] = {"export CUGRADE_ROOT=/srv/course/cugrade; exec /srv/course/cugrade/bin/cugrade batch ",
                          " --lab lab3 ", " --out /shared/out ", " --backend emu ", " --checks none ",
                          " --timeout-s 300 ", " --budget-s 45 ", " --rubric /srv/course/rubric.json ",
                          " --hidden-seed /srv/course/seed ", " --jobs \"${SLURM_CPUS_PER_TASK:-1}\" ",
                          " --only alice ", " --only 'o'\\''brien' ",
                          " --resume --no-class-files --shard \"$SLURM_ARRAY_TASK_ID/5\" '/shared/subs dir'",
                          NULL};
    for (int i = 0; want[i]; i++)
        cr_assert_not_null(strstr(cmd, want[i]), "no [%s] in:\n%s", want[i], cmd);
    cr_assert_null(strstr(cmd, "--datasets"), "no --datasets was given: %s", cmd);
    cr_assert_null(strstr(cmd, "--gpu-queue"), "the emulator needs no GPU queue: %s", cmd);
    cr_assert_null(strstr(cmd, "--perf-retime-s"), "not given, not forwarded: %s", cmd);
    free(cmd);
}

Test(slurm_cmd, a_gpu_task_gets_a_queue_of_its_own_on_its_node_and_given_jobs)
{
    batch_opts_t o = task_opts("native");
    o.jobs = 4;
    o.perf_retime_s = 300;
    o.datasets_dir = "/shared/datasets";
    char *cmd = slurm_task_command(&o, 2);
    cr_assert_not_null(strstr(cmd, " --gpu-queue \"${TMPDIR:-/tmp}/cugrade-gpu-queue.$SLURM_JOB_ID\" "), "%s", cmd);
    cr_assert_not_null(strstr(cmd, " --jobs 4 "), "%s", cmd);
    cr_assert_not_null(strstr(cmd, " --perf-retime-s 300 "), "%s", cmd);
    cr_assert_not_null(strstr(cmd, " --datasets /shared/datasets "), "%s", cmd);
    free(cmd);
    o.gpu_queue = "/node/queue";
    cmd = slurm_task_command(&o, 2);
    cr_assert_not_null(strstr(cmd, " --gpu-queue /node/queue "), "a given queue is kept: %s", cmd);
    free(cmd);
}

Test(slurm_cmd, the_merge_command_rebuilds_the_class_files_only)
{
    batch_opts_t o = task_opts("emu");
    char *cmd = slurm_merge_command(&o);
    cr_assert_str_eq(cmd, "export CUGRADE_ROOT=/srv/course/cugrade; exec /srv/course/cugrade/bin/cugrade "
                          "batch --merge --out /shared/out");
    free(cmd);
}

/* ---- Slurm's answers, from fake commands on PATH ---- */

static char fake_dir[64];

static void fake(const char *name, const char *script)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", fake_dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\n%s", script);
    fclose(f);
    cr_assert_eq(chmod(path, 0755), 0);
}

static void fake_path(void)
{
    snprintf(fake_dir, sizeof fake_dir, "/tmp/cugrade-fakeslurm-XXXXXX");
    cr_assert_not_null(mkdtemp(fake_dir));
    char path[4200];
    snprintf(path, sizeof path, "%s:/usr/bin:/bin", fake_dir);
    setenv("PATH", path, 1);
}

static void no_fakes(void)
{
    rm_rf(fake_dir);
}

TestSuite(slurm_answers, .init = fake_path, .fini = no_fakes);

Test(slurm_answers, sbatch_parsable_gives_the_job_id)
{
    char *argv[] = {"sbatch", "--parsable", "--wrap=true", NULL};
    const char *outputs[][2] = {{"echo 4242", "4242"},
                                {"echo '77;cluster2'", "77"},
                                {"echo 'sbatch: warning: this and that' >&2; echo 123", "123"}};
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) {
        fake("sbatch", outputs[i][0]);
        char id[32] = "", err[256] = "";
        cr_assert_eq(slurm_sbatch(argv, id, sizeof id, err, sizeof err), 0, "%s", err);
        cr_assert_str_eq(id, outputs[i][1]);
    }
}

Test(slurm_answers, a_refused_sbatch_gives_its_message)
{
    char *argv[] = {"sbatch", "--parsable", "--wrap=true", NULL};
    char id[32] = "", err[512] = "";
    fake("sbatch", "echo 'sbatch: error: invalid partition specified: nope' >&2; exit 1\n");
    cr_assert_eq(slurm_sbatch(argv, id, sizeof id, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "exited with status 1: sbatch: error: invalid partition specified: nope"),
                       "%s", err);
    fake("sbatch", "echo 'Submitted batch job'\n");
    cr_assert_eq(slurm_sbatch(argv, id, sizeof id, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "sbatch printed no job id"), "%s", err);
    setenv("PATH", fake_dir, 1); /* and no real one behind it */
    char gone[128];
    snprintf(gone, sizeof gone, "%s/sbatch", fake_dir);
    cr_assert_eq(unlink(gone), 0);
    cr_assert_eq(slurm_sbatch(argv, id, sizeof id, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "sbatch not found on PATH"), "%s", err);
}

Test(slurm_answers, sacct_states_are_counted_per_task)
{
    fake("sacct", "echo '12_0|COMPLETED'; echo '12_3|CANCELLED by 0'; echo '12_[4-6,9%2]|PENDING';"
                  " echo '12_1|COMPLETED'\n");
    char s[256];
    cr_assert_eq(slurm_job_states("12", s, sizeof s), 0);
    cr_assert_str_eq(s, "2 COMPLETED, 1 CANCELLED, 4 PENDING");
}

Test(slurm_answers, without_accounting_scontrol_says_the_states)
{
    fake("sacct", "echo 'Slurm accounting storage is disabled' >&2; exit 1\n");
    fake("scontrol", "echo 'JobId=12 ArrayJobId=12 ArrayTaskId=2-3 JobState=PENDING Reason=Resources'\n"
                     "echo 'JobId=14 ArrayJobId=12 ArrayTaskId=1 JobState=RUNNING Reason=None'\n"
                     "echo 'JobId=13 ArrayJobId=12 ArrayTaskId=0 JobState=COMPLETED Reason=None'\n");
    char s[256];
    cr_assert_eq(slurm_job_states("12", s, sizeof s), 0);
    cr_assert_str_eq(s, "2 PENDING, 1 RUNNING, 1 COMPLETED");
    fake("scontrol", "echo 'JobId=15 JobName=merge JobState=FAILED Reason=NonZeroExitCode'\n");
    cr_assert_eq(slurm_job_states("15", s, sizeof s), 0);
    cr_assert_str_eq(s, "1 FAILED");
}

Test(slurm_answers, a_job_nobody_knows_says_so)
{
    fake("sacct", "echo 'Slurm accounting storage is disabled' >&2; exit 1\n");
    fake("scontrol", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1\n");
    char s[256];
    cr_assert_eq(slurm_job_states("99", s, sizeof s), -1);
    cr_assert_str_eq(s, "not known to Slurm any more (sacct: Slurm accounting storage is disabled)");
}

Test(slurm_answers, squeue_says_what_is_still_queued)
{
    char s[128];
    fake("squeue", "case \"$*\" in *--jobs=12\\ *) echo RUNNING; echo PENDING ;; esac\n");
    slurm_queued_state("12", s, sizeof s);
    cr_assert_str_eq(s, "RUNNING");
    slurm_queued_state("13", s, sizeof s);
    cr_assert_str_eq(s, "", "a finished job is not in the queue");
    fake("squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1\n");
    slurm_queued_state("12", s, sizeof s);
    cr_assert_str_eq(s, "", "nor is one squeue has forgotten");
}

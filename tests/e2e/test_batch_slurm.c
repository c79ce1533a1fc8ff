/* test_batch_slurm.c - end to end, without Slurm: `cugrade batch --slurm`
 * against fake sbatch/squeue/sacct/scontrol scripts on PATH. The fake sbatch
 * records its arguments and, when asked, runs the job itself as Slurm would
 * (each array task with SLURM_ARRAY_TASK_ID, from the root folder, its output
 * in --output's file), so the whole round trip (submit, tasks, merge,
 * --status, rerun) is checked here; tests/slurm/test_slurm.sh does it on a
 * real Slurm. Also: a missing sbatch is exit 2 and says so, a refused
 * submission or a job still queued submits nothing, --merge by hand. */
#include "shard_class.h"

#include <sys/stat.h>

typedef struct {
    klass_t c;
    char bin[160];      /* the fake Slurm commands */
    char calls[200];    /* every sbatch call: "--- sbatch" then one argument per line */
    char path_env[4400];
    char *env[3];
} fake_t;

/* The fake sbatch: records, prints the next job id (100, 101, ...), and runs
 * the job when $FAKE_RUN is in the environment; fails when $FAKE_REFUSE. */
static const char *const fake_sbatch =
    "#!/bin/sh\n"
    "d=$(dirname \"$0\")\n"
    "echo '--- sbatch' >> \"$d/calls\"\n"
    "for a in \"$@\"; do printf '%s\\n' \"$a\" >> \"$d/calls\"; done\n"
    "if [ -n \"$FAKE_REFUSE\" ]; then echo 'sbatch: error: invalid partition specified: nope' >&2; exit 1; fi\n"
    "n=$(cat \"$d/next\" 2>/dev/null || echo 100); echo $((n + 1)) > \"$d/next\"\n"
    "array= wrap= output=\n"
    "for a in \"$@\"; do case \"$a\" in --array=*) array=${a#--array=} ;; --wrap=*) wrap=${a#--wrap=} ;;"
    " --output=*) output=${a#--output=} ;; esac; done\n"
    "if [ -n \"$FAKE_RUN\" ]; then\n"
    "  if [ -n \"$array\" ]; then\n"
    "    for part in $(echo \"$array\" | tr , ' '); do\n"
    "      k=${part%-*}; hi=${part#*-}\n"
    "      while [ \"$k\" -le \"$hi\" ]; do\n"
    "        out=$(echo \"$output\" | sed \"s/%A/$n/; s/%a/$k/\")\n"
    "        (cd / && SLURM_JOB_ID=$n SLURM_ARRAY_TASK_ID=$k sh -c \"$wrap\") > \"$out\" 2>&1\n"
    "        k=$((k + 1))\n"
    "      done\n"
    "    done\n"
    "  else\n"
    "    out=$(echo \"$output\" | sed \"s/%j/$n/\")\n"
    "    (cd / && SLURM_JOB_ID=$n sh -c \"$wrap\") > \"$out\" 2>&1\n"
    "  fi\n"
    "fi\n"
    "echo \"$n\"\n";

static void script(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    write_text(path, text);
    cr_assert_eq(chmod(path, 0755), 0);
}

/* A class and fake Slurm commands; run: the fake sbatch runs the jobs. */
static void make_fake(fake_t *fp, int run)
{
    fake_t f;
    memset(&f, 0, sizeof f);
    f.c = make_klass();
    snprintf(f.bin, sizeof f.bin, "%s/fakebin", f.c.dir);
    snprintf(f.calls, sizeof f.calls, "%s/calls", f.bin);
    cr_assert_eq(mkdir_p(f.bin, NULL, 0), 0);
    script(f.bin, "sbatch", fake_sbatch);
    script(f.bin, "squeue", "#!/bin/sh\nd=$(dirname \"$0\")\n[ -f \"$d/queued\" ] && cat \"$d/queued\"\nexit 0\n");
    script(f.bin, "sacct", "#!/bin/sh\necho 'Slurm accounting storage is disabled' >&2\nexit 1\n");
    script(f.bin, "scontrol", "#!/bin/sh\necho \"JobId=$4 JobName=x JobState=COMPLETED Reason=None\"\n");
    snprintf(f.path_env, sizeof f.path_env, "PATH=%s:%s", f.bin, getenv("PATH"));
    *fp = f;
    fp->env[0] = fp->path_env; /* pointing into *fp, not into this copy */
    fp->env[1] = run ? "FAKE_RUN=1" : NULL;
}

static run_result_t slurm_batch(const fake_t *f, const char *const *extra)
{
    return klass_batch_env(&f->c, f->c.out, extra, f->env);
}

static char *calls_of(const fake_t *f)
{
    char *text = read_file(f->calls, NULL, NULL, 0);
    return text ? text : strdup("");
}

/* The n-th sbatch call's arguments (one per line, each followed by "\n"). */
static char *call(const fake_t *f, int n)
{
    char *all = calls_of(f), *p = all;
    for (int i = 0; i <= n; i++) {
        p = strstr(p, "--- sbatch\n");
        cr_assert_not_null(p, "no sbatch call %d:\n%s", n, all);
        p += strlen("--- sbatch\n");
    }
    char *end = strstr(p, "--- sbatch\n");
    char *one = strndup(p, end ? (size_t)(end - p) : strlen(p));
    free(all);
    return one;
}

static int count_calls(const fake_t *f)
{
    char *all = calls_of(f);
    int n = 0;
    for (char *p = all; (p = strstr(p, "--- sbatch\n")); p++)
        n++;
    free(all);
    return n;
}

static void has_line(const char *args, const char *line)
{
    char want[2048];
    snprintf(want, sizeof want, "\n%s\n", line);
    char *with_nl = malloc(strlen(args) + 2);
    with_nl[0] = '\n';
    strcpy(with_nl + 1, args);
    cr_assert_not_null(strstr(with_nl, want), "no argument [%s] in:\n%s", line, args);
    free(with_nl);
}

Test(batch_slurm, without_sbatch_it_says_what_is_missing_and_exits_2, .timeout = 60)
{
    klass_t c = make_klass();
    char *env[] = {"PATH=/nonexistent-bin", NULL};
    const char *extra[] = {"--slurm", NULL};
    run_result_t r = klass_batch_env(&c, c.out, extra, env);
    cr_assert(r.exited && r.exit_code == 2, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "cugrade batch --slurm: sbatch not found on PATH (/nonexistent-bin): "),
                       "%s", r.output);
    cr_assert_not_null(strstr(r.output, "login node"), "%s", r.output);
    cr_assert(!exists_in(c.out, "."), "nothing was written");
    run_result_free(&r);
    rm_rf(c.dir);
}

Test(batch_slurm, the_sbatch_command_lines_and_the_record, .timeout = 120)
{
    fake_t f;
    make_fake(&f, 0);
    const char *extra[] = {"--slurm", "--shards", "3", "--sbatch=--partition=gpu", "--sbatch",
                           "--time=00:10:00", "--budget-s", "40", NULL};
    /* relative paths, from the class's folder: the tasks get absolute ones */
    char exe[PATH_MAX], root[PATH_MAX];
    cr_assert_not_null(realpath("bin/cugrade", exe));
    cr_assert_not_null(realpath(".", root));
    char *argv[] = {exe, "batch", "--lab", "lab3", "--out", "out", "--backend", "native", "--checks", "none",
                    "--datasets", "datasets", "--rubric", "rubric.json", (char *)extra[0],
                    (char *)extra[1], (char *)extra[2], (char *)extra[3], (char *)extra[4],
                    (char *)extra[5], (char *)extra[6], (char *)extra[7], "subs", NULL};
    run_spec_t spec = {.argv = argv, .cwd = f.c.dir, .extra_env = f.env, .timeout_s = 120,
                       .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "job array 100: 3 of 3 shard(s) (--array=0-2)"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "job 101 rebuilds gradebook.csv"), "%s", r.output);
    cr_assert_eq(count_calls(&f), 2);

    char abs_out[256], line[16384];
    snprintf(abs_out, sizeof abs_out, "%s/out", f.c.dir);
    char *array = call(&f, 0), *merge = call(&f, 1);
    has_line(array, "--parsable");
    has_line(array, "--array=0-2");
    has_line(array, "--job-name=cugrade-lab3");
    snprintf(line, sizeof line, "--output=%s/.slurm/task-%%A_%%a.log", abs_out);
    has_line(array, line);
    has_line(array, "--gres=gpu:1");
    has_line(array, "--partition=gpu");
    has_line(array, "--time=00:10:00");
    cr_assert(strstr(array, "--partition=gpu\n--time=00:10:00\n--wrap=") != NULL,
              "--sbatch's options come after ours, before --wrap:\n%s", array);
    snprintf(line, sizeof line, "--wrap=export CUGRADE_ROOT=%s; exec %s batch --lab lab3 --out %s "
             "--backend native --checks none --timeout-s 600 --budget-s 40 --datasets %s/datasets --rubric "
             "%s/rubric.json --hidden-seed ", root, exe, abs_out, f.c.dir, f.c.dir);
    cr_assert_not_null(strstr(array, line), "want [%s] in:\n%s", line, array);
    snprintf(line, sizeof line, "--resume --no-class-files --shard \"$SLURM_ARRAY_TASK_ID/3\" %s/subs\n",
             f.c.dir);
    cr_assert_not_null(strstr(array, line), "want [%s] in:\n%s", line, array);

    has_line(merge, "--dependency=afterany:100");
    has_line(merge, "--job-name=cugrade-lab3-merge");
    snprintf(line, sizeof line, "--output=%s/.slurm/merge-%%j.log", abs_out);
    has_line(merge, line);
    has_line(merge, "--partition=gpu");
    cr_assert_null(strstr(merge, "--gres"), "the merge needs no GPU:\n%s", merge);
    snprintf(line, sizeof line, "--wrap=export CUGRADE_ROOT=%s; exec %s batch --merge --out %s", root, exe,
             abs_out);
    has_line(merge, line);

    char rec_path[300];
    snprintf(rec_path, sizeof rec_path, "%s/.slurm/slurm.json", abs_out);
    json_object *rec = json_object_from_file(rec_path), *subs, *batch;
    cr_assert_not_null(rec, "no record");
    cr_assert(json_object_object_get_ex(rec, "submits", &subs) && json_object_array_length(subs) == 1);
    json_object *s0 = json_object_array_get_idx(subs, 0);
    cr_assert_str_eq(str(s0, "array_job"), "100");
    cr_assert_str_eq(str(s0, "merge_job"), "101");
    cr_assert_eq((int)num(s0, "shards"), 3);
    cr_assert_eq((int)num(s0, "to_grade"), 6);
    cr_assert(json_object_object_get_ex(rec, "batch", &batch));
    snprintf(line, sizeof line, "%s/subs", f.c.dir);
    cr_assert_str_eq(str(batch, "submissions"), line);
    cr_assert_str_eq(str(batch, "backend"), "native");
    json_object_put(rec);
    free(array), free(merge);
    run_result_free(&r);
    rm_rf(f.c.dir);
}

Test(batch_slurm, the_emulator_asks_for_no_gpu_and_a_small_class_is_one_shard, .timeout = 120)
{
    fake_t f;
    make_fake(&f, 0);
    const char *extra[] = {"--slurm", NULL};
    run_result_t r = slurm_batch(&f, extra);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    char *array = call(&f, 0);
    has_line(array, "--array=0");
    cr_assert_null(strstr(array, "--gres"), "%s", array);
    cr_assert_not_null(strstr(array, "--shard \"$SLURM_ARRAY_TASK_ID/1\""), "%s", array);
    free(array);
    run_result_free(&r);
    rm_rf(f.c.dir);
}

Test(batch_slurm, tasks_and_merge_give_the_local_gradebook_and_a_rerun_only_what_is_missing,
     .timeout = 300)
{
    fake_t f;
    make_fake(&f, 1);
    const char *extra[] = {"--slurm", "--shards", "3", NULL};
    run_result_t r = slurm_batch(&f, extra);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    run_result_free(&r);
    char *log = slurp_in(f.c.out, ".slurm/task-100_1.log");
    cr_assert_not_null(strstr(log, "shard 1 of 3 (numbered from 0): 2 of the class's 6"), "%s", log);
    free(log);
    log = slurp_in(f.c.out, ".slurm/merge-101.log");
    cr_assert_not_null(strstr(log, "cugrade batch --merge: rebuilt gradebook.csv"), "%s", log);
    free(log);

    char local[160];
    snprintf(local, sizeof local, "%s/local", f.c.dir);
    r = klass_batch(&f.c, local, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
    char *want = slurp_in(local, "gradebook.csv"), *got = slurp_in(f.c.out, "gradebook.csv");
    cr_assert_str_eq(got, want, "the merged gradebook differs from a local batch's");
    free(got);

    const char *status[] = {"--status", "--out", f.c.out, NULL};
    char *argv[] = {"bin/cugrade", "batch", (char *)status[0], (char *)status[1], (char *)status[2], NULL};
    run_spec_t spec = {.argv = argv, .extra_env = f.env, .timeout_s = 60, .output_cap = 1 << 16};
    run_one(&spec, &r);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    cr_assert_not_null(strstr(r.output, "6 submission(s): 6 done, 0 missing, 0 failed"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "slurm: job array 100 (3 of 3 shard(s), submitted "), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "all 6 done"), "%s", r.output);
    run_result_free(&r);

    /* erin's grading "killed": her inputs hash is gone, as a killed task leaves it */
    char path[300];
    snprintf(path, sizeof path, "%s/erin/inputs.sha256", f.c.out);
    cr_assert_eq(unlink(path), 0);
    run_one(&spec, &r);
    cr_assert_not_null(strstr(r.output, "6 submission(s): 5 done, 1 missing, 0 failed"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "missing: erin"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "1 left: run the same cugrade batch --slurm command again"), "%s",
                       r.output);
    run_result_free(&r);

    r = slurm_batch(&f, extra); /* the rerun: erin's shard (index 4: shard 1) alone */
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "job array 102: 1 of 3 shard(s) (--array=1)"), "%s", r.output);
    run_result_free(&r);
    log = slurp_in(f.c.out, ".slurm/task-102_1.log");
    cr_assert_not_null(strstr(log, "2 submission(s), 1 to grade, 0 to re-score, 1 unchanged (skipped)"), "%s", log);
    cr_assert_not_null(strstr(log, "] erin  "), "%s", log);
    free(log);
    got = slurp_in(f.c.out, "gradebook.csv");
    cr_assert_str_eq(got, want);
    free(got);

    r = slurm_batch(&f, extra); /* and then nothing is left */
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "nothing left to grade"), "%s", r.output);
    cr_assert_eq(count_calls(&f), 4, "nothing was submitted");
    run_result_free(&r);
    free(want);
    rm_rf(f.c.dir);
}

Test(batch_slurm, only_submits_the_shards_of_the_chosen_and_refuses_an_unknown_id, .timeout = 120)
{
    fake_t f;
    make_fake(&f, 0);
    const char *extra[] = {"--slurm", "--shards", "3", "--only", "carol", "--only", "frank", NULL};
    run_result_t r = slurm_batch(&f, extra);
    cr_assert(r.exited && r.exit_code == 0, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "2 submission(s): 0 done, 2 missing"), "%s", r.output);
    char *array = call(&f, 0);
    has_line(array, "--array=2"); /* carol (index 2) and frank (index 5) are both shard 2 */
    cr_assert_not_null(strstr(array, " --only carol --only frank "), "%s", array);
    free(array);
    run_result_free(&r);
    const char *unknown[] = {"--slurm", "--only", "mallory", NULL};
    r = slurm_batch(&f, unknown);
    cr_assert(r.exited && r.exit_code == 64, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "--only mallory: no such submission"), "%s", r.output);
    cr_assert_eq(count_calls(&f), 2, "nothing more was submitted");
    run_result_free(&r);
    rm_rf(f.c.dir);
}

Test(batch_slurm, a_job_still_in_the_queue_or_a_refused_sbatch_submits_nothing, .timeout = 120)
{
    fake_t f;
    make_fake(&f, 0);
    const char *extra[] = {"--slurm", NULL};
    run_result_t r = slurm_batch(&f, extra);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
    char queued[200];
    snprintf(queued, sizeof queued, "%s/queued", f.bin);
    write_text(queued, "RUNNING\n");
    r = slurm_batch(&f, extra);
    cr_assert(r.exited && r.exit_code == 2, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "job 100 of the last submission is still in the queue (RUNNING)"),
                       "%s", r.output);
    cr_assert_eq(count_calls(&f), 2, "nothing more was submitted");
    run_result_free(&r);
    unlink(queued);

    char *rec_before = slurp_in(f.c.out, ".slurm/slurm.json");
    f.env[1] = "FAKE_REFUSE=1";
    r = slurm_batch(&f, extra);
    cr_assert(r.exited && r.exit_code == 2, "exit %d:\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "the job array was not submitted: sbatch exited with status 1: "
                                        "sbatch: error: invalid partition specified: nope"), "%s", r.output);
    char *rec_after = slurp_in(f.c.out, ".slurm/slurm.json");
    cr_assert_str_eq(rec_after, rec_before, "a refused submission is not recorded");
    free(rec_before), free(rec_after);
    run_result_free(&r);
    rm_rf(f.c.dir);
}

static run_result_t cugrade(char *const *argv)
{
    run_spec_t spec = {.argv = argv, .timeout_s = 120, .output_cap = 1 << 20};
    run_result_t r;
    run_one(&spec, &r);
    return r;
}

Test(batch_slurm, merge_by_hand_rebuilds_the_class_files_and_says_what_is_missing, .timeout = 300)
{
    klass_t c = make_klass();
    run_result_t r = klass_batch(&c, c.out, NULL);
    cr_assert(r.exited && r.exit_code == 0, "%s", r.output);
    run_result_free(&r);
    char *want = slurp_in(c.out, "gradebook.csv");
    char path[300];
    snprintf(path, sizeof path, "%s/gradebook.csv", c.out);
    unlink(path);
    snprintf(path, sizeof path, "%s/class.html", c.out);
    unlink(path);

    char *merge[] = {"bin/cugrade", "batch", "--merge", "--out", c.out, NULL};
    r = cugrade(merge);
    cr_assert(r.exited && r.exit_code == 0, "a results folder without a record: exit %d\n%s", r.exit_code,
              r.output);
    char *got = slurp_in(c.out, "gradebook.csv");
    cr_assert_str_eq(got, want);
    cr_assert(exists_in(c.out, "class.html") && exists_in(c.out, "summary.json"));
    free(got);
    run_result_free(&r);

    /* frank's result gone, dave NOT GRADED (a run.log, no results.json) */
    snprintf(path, sizeof path, "%s/frank", c.out);
    rm_rf(path);
    snprintf(path, sizeof path, "%s/dave/results.json", c.out);
    cr_assert_eq(unlink(path), 0);
    char *merge_class[] = {"bin/cugrade", "batch", "--merge", "--lab", "lab3", "--out", c.out, "--backend",
                           "emu", "--checks", "none", "--datasets", c.datasets, "--rubric", c.rubric,
                           c.subs, NULL};
    r = cugrade(merge_class);
    cr_assert(r.exited && r.exit_code == 2, "exit %d\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "not every submission has a result yet"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "6 submission(s): 4 done, 1 missing, 1 failed"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "missing: frank"), "%s", r.output);
    cr_assert_not_null(strstr(r.output, "failed (NOT GRADED, see run.log): dave"), "%s", r.output);
    got = slurp_in(c.out, "gradebook.csv");
    cr_assert_null(strstr(got, "\nfrank,"), "%s", got);
    cr_assert_not_null(strstr(got, "\nerin,"), "%s", got);
    free(got);
    run_result_free(&r);

    char *status[] = {"bin/cugrade", "batch", "--status", "--lab", "lab3", "--out", c.out, "--backend", "emu",
                      "--checks", "none", "--datasets", c.datasets, "--rubric", c.rubric, c.subs, NULL};
    r = cugrade(status);
    cr_assert(r.exited && r.exit_code == 0, "exit %d\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "2 left: run the same cugrade batch --resume command again"), "%s",
                       r.output);
    run_result_free(&r);
    /* a different --checks is a different grade: nobody is done under it */
    status[10] = "all";
    r = cugrade(status);
    cr_assert_not_null(strstr(r.output, "6 submission(s): 0 done, 5 missing, 1 failed"), "%s", r.output);
    run_result_free(&r);
    free(want);
    rm_rf(c.dir);
}

Test(batch_slurm, status_needs_a_record_or_the_class_and_the_modes_check_their_options, .timeout = 60)
{
    char *no_record[] = {"bin/cugrade", "batch", "--status", "--out", "/tmp", NULL};
    run_result_t r = cugrade(no_record);
    cr_assert(r.exited && r.exit_code == 64, "exit %d\n%s", r.exit_code, r.output);
    cr_assert_not_null(strstr(r.output, "has no record of a --slurm batch"), "%s", r.output);
    run_result_free(&r);
    char *bad[][8] = {{"bin/cugrade", "batch", "--shards", "3", "--out", "o", "subs", NULL},
                      {"bin/cugrade", "batch", "--sbatch=-p x", "--out", "o", "subs", NULL},
                      {"bin/cugrade", "batch", "--slurm", "--shard", "0/2", "--out", "o", "subs"},
                      {"bin/cugrade", "batch", "--status", "--merge", "--out", "o", NULL},
                      {"bin/cugrade", "batch", "--slurm", "--shards", "0", "--out", "o", "subs"},
                      {"bin/cugrade", "batch", "--slurm", "--out", "o", NULL}};
    const char *why[] = {"--shards and --sbatch go with --slurm", "--shards and --sbatch go with --slurm",
                         "not --shard K/N", "--status or --merge, not both", "bad --shards '0'", "usage:"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *argv[9];
        memcpy(argv, bad[i], sizeof bad[i]);
        argv[8] = NULL;
        r = cugrade(argv);
        cr_assert(r.exited && r.exit_code == 64, "case %zu: exit %d\n%s", i, r.exit_code, r.output);
        cr_assert_not_null(strstr(r.output, why[i]), "case %zu:\n%s", i, r.output);
        run_result_free(&r);
    }
}

/* cmd_batch.c - `cugrade batch`: the command line of batch grading; the work
 * is in batch.c. Exit 0 when every submission got a results.json, 2
 * otherwise (a grader fault among them), 64 for bad usage. */
#include "batch/batch.h"
#include "batch/batch_stop.h"
#include "build/backend.h"
#include "cli/batch_modes.h"
#include "cli/commands.h"
#include "run/runner.h"
#include "util/tmpdir.h"

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void batch_usage(FILE *to)
{
    fputs("usage: cugrade batch --lab LAB --out RESULTS_DIR [--jobs N] [--backend auto|emu|gpu|vgpu|native]\n"
          "                     [--checks all|none] [--timeout-s S] [--resume] [--only ID]...\n"
          "                     [--budget-s S] [--gpu-queue DIR] [--datasets DIR] [--rubric FILE]\n"
          "                     [--hidden-seed FILE] [--perf-retime-s S] [--shard K/N]\n"
          "                     [--no-class-files]\n"
          "                     SUBMISSIONS_DIR\n"
          "\n"
          "Each sub-folder of SUBMISSIONS_DIR is one student's submission (its name is the id),\n"
          "graded by `cugrade run` in a child process. Writes RESULTS_DIR/<id>/results.json,\n"
          "measurements.json, run.log and inputs.sha256, then RESULTS_DIR/gradebook.csv and\n"
          "summary.json.\n"
          "--resume skips submissions whose inputs are unchanged since they were graded, and\n"
          "re-scores from measurements.json, building and running nothing, those whose rubric\n"
          "changed only in points, visibility, test names or thresholds (not in time limits,\n"
          "budgets, the hidden count, which checks exist, the performance shapes or time cap);\n"
          "--only ID grades just those students (repeatable). --jobs: default the core count;\n"
          "--timeout-s: wall-clock limit per submission (default 600).\n"
          "--budget-s: time for all dataset runs of a submission together (default: the\n"
          "rubric's datasets.budget_s), so an endless loop costs it once, not once per dataset.\n"
          "On a GPU machine, worker w grades on GPU w mod ngpu and timed runs wait in that GPU's\n"
          "timing queue (--gpu-queue DIR, default RESULTS_DIR/.gpu-queue; share one folder\n"
          "between batches run at the same time).\n"
          "There the lab's reference and cuBLAS are timed once on each GPU (the baseline) and\n"
          "again once the last timing is older than --perf-retime-s (default 120), and each\n"
          "submission's timing program times only its kernel, alone on the GPU; every baseline\n"
          "timing and their spread go to RESULTS_DIR/perf-baselines.json.\n"
          "The hidden datasets (rubric \"hidden\") are made once, from the secret (--hidden-seed\n"
          "FILE, else $CUGRADE_HIDDEN_SEED_FILE, else .cugrade/hidden-seed in the checkout),\n"
          "for every student; a new secret regrades everyone on --resume.\n"
          "Before grading anyone it checks that it can grade at all (the canary: the lab's\n"
          "reference built and run on the smallest dataset) and stops with status 2 if not.\n"
          "A submission whose `cugrade run` hits a grader fault is NOT GRADED: no results.json,\n"
          "no gradebook row, no inputs hash (--resume grades it again).\n"
          "--shard K/N grades only shard K (0 .. N-1) of N: the submissions whose index in\n"
          "the sorted class list is K mod N (N such batches share one RESULTS_DIR);\n"
          "--no-class-files leaves gradebook.csv, summary.json and class.html as they are.\n"
          "Exit status: 0 every submission has a results.json, 2 otherwise, 64 bad usage.\n",
          to);
    batch_mode_usage(to);
}

static void on_fatal_signal(int sig)
{
    batch_stopping(); /* before the kill: no worker writes a verdict for a child it kills */
    run_kill_all();
    batch_stop_say(2, sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int parse_args(int argc, char **argv, batch_opts_t *o, slurm_opts_t *s)
{
    static const struct option opts[] = {
        {"lab", required_argument, 0, 'l'},      {"out", required_argument, 0, 'o'},
        {"jobs", required_argument, 0, 'J'},     {"backend", required_argument, 0, 'b'},
        {"checks", required_argument, 0, 'C'},   {"timeout-s", required_argument, 0, 't'},
        {"resume", no_argument, 0, 'R'},         {"only", required_argument, 0, 'O'},
        {"datasets", required_argument, 0, 'd'}, {"rubric", required_argument, 0, 'r'},
        {"budget-s", required_argument, 0, 'B'}, {"gpu-queue", required_argument, 0, 'Q'},
        {"hidden-seed", required_argument, 0, 'S'}, {"perf-retime-s", required_argument, 0, 'P'},
        {"shard", required_argument, 0, 'k'},      {"no-class-files", no_argument, 0, 'N'},
        {"slurm", no_argument, 0, 'U'},          {"sbatch", required_argument, 0, 'X'},
        {"shards", required_argument, 0, 'n'},   {"status", no_argument, 0, 'T'},
        {"merge", no_argument, 0, 'M'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': o->lab = optarg; break;
        case 'o': o->out_dir = optarg; break;
        case 'J': o->jobs = atoi(optarg); break;
        case 'b':
            if (backend_parse(optarg, &(backend_t){BACKEND_AUTO}) != 0)
                return fprintf(stderr, "cugrade batch: bad --backend '%s' (auto, emu, gpu, vgpu or native)\n",
                               optarg), -1;
            o->backend = optarg;
            break;
        case 'C':
            if (strcmp(optarg, "all") && strcmp(optarg, "none"))
                return fprintf(stderr, "cugrade batch: bad --checks '%s' (all or none)\n", optarg), -1;
            o->checks = strcmp(optarg, "all") == 0;
            break;
        case 't': o->timeout_s = atof(optarg); break;
        case 'R': o->resume = 1; break;
        case 'O':
            if (o->nonly == BATCH_MAX_ONLY || strchr(optarg, '/') || optarg[0] == '.')
                return fprintf(stderr, "cugrade batch: bad or too many --only '%s'\n", optarg), -1;
            o->only[o->nonly++] = optarg;
            break;
        case 'd': o->datasets_dir = optarg; break;
        case 'r': o->rubric_path = optarg; break;
        case 'B': o->budget_s = atof(optarg); break;
        case 'Q': o->gpu_queue = optarg; break;
        case 'S': o->hidden_seed = optarg; break;
        case 'P': o->perf_retime_s = atof(optarg); break;
        case 'k':
            if (batch_parse_shard(optarg, &o->shard_index, &o->shard_count) != 0)
                return fprintf(stderr, "cugrade batch: bad --shard '%s' (K/N, 0 <= K < N)\n", optarg), -1;
            break;
        case 'N': o->no_class_files = 1; break;
        case 'U': case 'X': case 'n': case 'T': case 'M':
            if (batch_mode_option(c, optarg, s) != 0)
                return -1;
            break;
        case 'h': batch_usage(stdout); exit(0);
        default: return -1;
        }
    }
    if (batch_mode_check(o, s, argc - optind) != 0 || !o->out_dir || o->timeout_s <= 0 ||
        o->jobs < 0 || o->budget_s < 0 || o->perf_retime_s < 0)
        return -1;
    o->submissions_dir = optind < argc ? argv[optind] : NULL;
    return 0;
}

int cmd_batch(int argc, char **argv)
{
    static char self[PATH_MAX];
    batch_opts_t o = {.root = cugrade_root(), .lab = "lab3", .backend = "auto", .checks = 1,
                      .timeout_s = 600};
    slurm_opts_t s = {.argc = argc, .argv = argv};
    if (parse_args(argc, argv, &o, &s) != 0) {
        batch_usage(stderr);
        return EXIT_USAGE;
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        snprintf(self, sizeof self, "%s/bin/cugrade", o.root);
    else
        self[n] = '\0';
    o.self_exe = self;
    batch_stop_prepare(argv[-1], argc, argv); /* argv is main's from "batch" on (cli/main.c) */
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    tmp_sweep(); /* what gradings killed on this machine left in $TMPDIR */
    return batch_mode_wanted(&s) ? batch_mode_run(&o, &s, stdout) : batch_run(&o, stdout);
}

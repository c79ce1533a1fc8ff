/* cmd_run.c - `cugrade run`: grade one submission, print the report, write
 * results.json (and, with --measurements, what was measured, for `cugrade
 * rescore`). Exit 0 when graded (whatever the score), 2 when the grader
 * could not grade (bad rubric, missing datasets, broken lab or toolchain):
 * then no score is written for the student (docs/grading.md). */
#include "batch/archive.h"
#include "cli/commands.h"
#include "pipeline/grade.h"
#include "report/html_report.h"
#include "report/report.h"
#include "run/runner.h"
#include "run/sandbox.h"
#include "util/tmpdir.h"
#include "util/util.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run_usage(FILE *to)
{
    fputs("usage: cugrade run --lab LAB [--backend auto|emu|gpu|vgpu|native] [--datasets DIR] [--json FILE]\n"
          "                   [--rubric FILE] [--jobs N] [--checks all|none] [--keep]\n"
          "                   [--color auto|always|never] [--verbose] [--budget-s S]\n"
          "                   [--dataset-runs auto|grouped|separate]\n"
          "                   [--gpu-queue DIR --gpu N] [--hidden-seed FILE]\n"
          "                   [--measurements FILE] SUBMISSION\n"
          "\n"
          "SUBMISSION is the student's .cu file or a folder laid out like student/ (LAB/FILE).\n"
          "--backend vgpu: kernel labs on the grader's PTX executor (bin/cugrade-vgpu), the\n"
          "  student's host code in its own sandboxed process (docs/emulator.md).\n"
          "--checks none skips the emulator's checks (races, barriers, memory, traffic): faster.\n"
          "--html FILE: also write the report as one self-contained HTML page.\n"
          "--measurements FILE: also write what the grading measured (rubric-independent:\n"
          "  verdicts, messages, the checks' reports, the timing), which `cugrade rescore`\n"
          "  scores again under a changed rubric without building or running anything.\n"
          "--verbose: list every dataset in the terminal report (by default datasets that\n"
          "  fail the same way are one block, and the passing ones one line).\n"
          "--budget-s S: wall-clock budget for all dataset runs of one program together; a\n"
          "dataset not run when it is used up fails with that reason (default: none).\n"
          "--dataset-runs: grouped runs every dataset in one process of the lab driver (one\n"
          "CUDA context), separate one process each; auto (default): grouped on the native backend.\n"
          "--gpu-queue DIR --gpu N: join GPU N's timing queue in DIR (as `cugrade batch` does):\n"
          "correctness runs share the GPU, the timed run has it alone.\n"
          "Besides the public datasets it grades the rubric's hidden ones (\"hidden\": 8 by\n"
          "default), made now by the lab's generator from a secret the submission never sees:\n"
          "--hidden-seed FILE (else $CUGRADE_HIDDEN_SEED_FILE, else .cugrade/hidden-seed in the\n"
          "checkout, made on first use). The report names them only by their shapes.\n"
          "(--hidden-set DIR: the hidden datasets cugrade batch made once for all students.)\n"
          "(--perf-baseline FILE: the reference and cuBLAS timed by cugrade batch on this GPU;\n"
          "the timing program then times the student's kernel alone.)\n"
          "(--gpu-choice INDEX:VISIBLE:NODE:BASELINE, once per GPU: cugrade batch's GPUs; after\n"
          "the build the run takes the one with the fewest submissions on it, --gpu's on a tie.)\n"
          "Exit status: 0 graded (whatever the score), 2 could not grade, 64 bad usage.\n"
          "On a grader fault (toolchain, emulator runtime, lab files, reference) it says what\n"
          "failed on stderr, exits 2 and writes no results.json (an old one at --json is\n"
          "removed): a grader fault is never a student's zero.\n",
          to);
}

/* --html FILE: the report as one HTML page, its path printed like results'. */
static int write_html(const grade_run_t *run, const char *path)
{
    char err[1024];
    const char *who = run->student_file[0] ? run->student_file : "submission";
    if (html_write_grade_page(&run->grade, who, path, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade: %s\n", err);
        return -1;
    }
    printf("  report: %s\n", path);
    return 0;
}

/* --measurements FILE: what the grading measured (score/measured.h). */
static int write_measurements(const grade_run_t *run, const char *path)
{
    char err[1024];
    if (measured_write(&run->measured, path, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade: %s\n", err);
        return -1;
    }
    printf("  measurements: %s\n", path);
    return 0;
}

/* A grader fault: no file at --json or --html may claim a score for this
 * run, so an earlier one there is removed. */
static void remove_stale(const char *path)
{
    if (path && unlink(path) == 0)
        fprintf(stderr, "cugrade: removed %s (from an earlier run): no score was given this time\n",
                path);
}

static void on_fatal_signal(int sig)
{
    run_kill_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The folder that will hold FILE, as an absolute path, hidden from student
 * programs by the sandbox (bwrap needs absolute paths). */
static void hide_results_folder(const char *file)
{
    char dir[PATH_MAX], abs[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (realpath(dir, abs) && strcmp(abs, "/") != 0)
        sandbox_set_results_dir(abs);
}

/* An archive (.zip, .tar.gz, .tgz, .tar) is unpacked as `cugrade batch`
 * unpacks one, by the same rules (batch/archive.h), into a folder of its
 * own, graded as a folder is. 0, or -1 with the refusal printed. */
static int unpack_submission(const char *archive, char *dir, size_t len)
{
    char err[1024];
    if (tmp_dir_make("sub-", dir, len, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade run: %s\n", err);
        return -1;
    }
    if (archive_unpack(archive, dir, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade run: %s: not graded, the archive is refused: %s\n", archive,
                err);
        rm_rf(dir);
        dir[0] = '\0';
        return -1;
    }
    printf("cugrade run: unpacked %s\n", path_base(archive));
    return 0;
}

static int parse_color(const char *s, color_mode_t *c)
{
    if (strcmp(s, "auto") == 0)
        *c = COLOR_AUTO;
    else if (strcmp(s, "always") == 0)
        *c = COLOR_ALWAYS;
    else if (strcmp(s, "never") == 0)
        *c = COLOR_NEVER;
    else
        return -1;
    return 0;
}

static int parse_dataset_runs(const char *s, dataset_runs_t *d)
{
    if (strcmp(s, "auto") == 0)
        *d = DATASET_RUNS_AUTO;
    else if (strcmp(s, "grouped") == 0)
        *d = DATASET_RUNS_GROUPED;
    else if (strcmp(s, "separate") == 0)
        *d = DATASET_RUNS_SEPARATE;
    else
        return -1;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"lab", required_argument, 0, 'l'},     {"backend", required_argument, 0, 'b'},
        {"datasets", required_argument, 0, 'd'}, {"json", required_argument, 0, 'j'},
        {"rubric", required_argument, 0, 'r'},  {"jobs", required_argument, 0, 'J'},
        {"keep", no_argument, 0, 'k'},          {"color", required_argument, 0, 'c'},
        {"checks", required_argument, 0, 'C'},
        {"html", required_argument, 0, 'H'},
        {"budget-s", required_argument, 0, 'B'}, {"gpu-queue", required_argument, 0, 'Q'},
        {"gpu", required_argument, 0, 'G'},     {"dataset-runs", required_argument, 0, 'R'},
        {"verbose", no_argument, 0, 'v'},
        {"hidden-seed", required_argument, 0, 'S'}, {"hidden-set", required_argument, 0, 'D'},
        {"perf-baseline", required_argument, 0, 'P'},
        {"gpu-choice", required_argument, 0, 'g'},
        {"measurements", required_argument, 0, 'M'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    grade_opts_t o = {.root = cugrade_root(), .lab = "lab3", .backend = BACKEND_AUTO, .checks = 1};
    const char *json_path = NULL;
    const char *html_path = NULL;
    const char *measured_path = NULL;
    color_mode_t color = COLOR_AUTO;
    int verbose = 0;
    static gpu_choice_t choices[GPU_CHOICES_MAX];
    char err[PATH_MAX + 512];
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': o.lab = optarg; break;
        case 'b':
            if (backend_parse(optarg, &o.backend) != 0) {
                fprintf(stderr, "cugrade run: bad --backend '%s' (auto, emu, gpu, vgpu or native)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'd': o.datasets_dir = optarg; break;
        case 'j': json_path = optarg; break;
        case 'H': html_path = optarg; break;
        case 'M': measured_path = optarg; break;
        case 'r': o.rubric_path = optarg; break;
        case 'J': o.jobs = atoi(optarg); break;
        case 'k': o.keep_scratch = 1; break;
        case 'v': verbose = 1; break;
        case 'S': o.hidden_seed = optarg; break;
        case 'D': o.hidden_set_dir = optarg; break;
        case 'P': o.perf_baseline = optarg; break;
        case 'c':
            if (parse_color(optarg, &color) != 0) {
                fprintf(stderr, "cugrade run: bad --color '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'C':
            if (strcmp(optarg, "all") != 0 && strcmp(optarg, "none") != 0) {
                fprintf(stderr, "cugrade run: bad --checks '%s' (all or none)\n", optarg);
                return EXIT_USAGE;
            }
            o.checks = strcmp(optarg, "all") == 0;
            break;
        case 'B': o.budget_s = atof(optarg); break;
        case 'Q': o.gpu_queue = optarg; break;
        case 'G': o.gpu_index = atoi(optarg); break;
        case 'g':
            if (o.ngpu_choices == GPU_CHOICES_MAX ||
                gpu_choice_parse(optarg, &choices[o.ngpu_choices], err, sizeof err) != 0) {
                fprintf(stderr, "cugrade run: %s\n",
                        o.ngpu_choices == GPU_CHOICES_MAX ? "too many --gpu-choice" : err);
                return EXIT_USAGE;
            }
            o.gpu_choices = choices;
            o.ngpu_choices++;
            break;
        case 'R':
            if (parse_dataset_runs(optarg, &o.dataset_runs) != 0) {
                fprintf(stderr, "cugrade run: bad --dataset-runs '%s' (auto, grouped or separate)\n",
                        optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h': run_usage(stdout); return 0;
        default: run_usage(stderr); return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        run_usage(stderr);
        return EXIT_USAGE;
    }
    o.submission = argv[optind];
    if (access(o.submission, F_OK) != 0) { /* a typo, not a student's missing file */
        fprintf(stderr, "cugrade run: %s: %s (a submission is a file or a folder)\n", o.submission,
                strerror(errno));
        return EXIT_USAGE;
    }
    char unpacked[PATH_MAX] = "";
    if (archive_kind(o.submission, NULL) != ARCHIVE_NONE && is_file(o.submission)) {
        if (unpack_submission(o.submission, unpacked, sizeof unpacked) != 0)
            return EXIT_USAGE;
        o.submission = unpacked;
    }
    const char *outputs[] = {json_path, html_path, measured_path}; /* the student's program */
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) /* must not see them */
        if (outputs[i])
            hide_results_folder(outputs[i]);
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    if (!getenv(TMP_SWEPT_ENV)) /* a batch's child: the batch swept */
        tmp_sweep();            /* what gradings killed on this machine left in $TMPDIR */

    grade_run_t run;
    if (grade_submission(&o, &run) != 0) {
        if (unpacked[0])
            rm_rf(unpacked);
        fprintf(stderr, "cugrade: cannot grade: %s\n", run.error);
        remove_stale(json_path);
        remove_stale(html_path);
        remove_stale(measured_path);
        if (run.scratch[0])
            fprintf(stderr, "cugrade: build and run files kept in %s\n", run.scratch);
        grade_run_free(&run);
        return EXIT_CANNOT_GRADE;
    }
    report_print(stdout, &run, o.lab, color, verbose);
    int rc = run.cannot_grade ? EXIT_CANNOT_GRADE : EXIT_GRADED;
    if (measured_path && write_measurements(&run, measured_path) != 0)
        rc = EXIT_CANNOT_GRADE;
    if (json_path) {
        char err[1024];
        if (grade_write_json(&run.grade, json_path, err, sizeof err) != 0) {
            fprintf(stderr, "cugrade: %s\n", err);
            rc = EXIT_CANNOT_GRADE;
        } else {
            printf("  results: %s\n", json_path);
        }
    }
    if (html_path && write_html(&run, html_path) != 0)
        rc = EXIT_CANNOT_GRADE;
    if (run.scratch[0])
        printf("  build and run files kept in %s\n", run.scratch);
    grade_run_free(&run);
    if (unpacked[0])
        rm_rf(unpacked);
    return rc;
}

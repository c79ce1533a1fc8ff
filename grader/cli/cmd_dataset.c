/* cmd_dataset.c - `cugrade dataset`: generate a dataset, or re-check
 * existing ones against their inputs. */
#include "cli/commands.h"
#include "dataset/dataset.h"
#include "dataset/gen.h"
#include "dataset/hidden.h"
#include "pipeline/hidden_set.h"
#include "course/lab.h"
#include "kinds/kind.h"
#include "util/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void dataset_usage(FILE *to)
{
    fputs("usage: cugrade dataset --lab LAB --shape SHAPE [--seed S] [--values course|signed] --out DIR\n"
          "       cugrade dataset [--lab LAB] --check DIR...\n"
          "       cugrade dataset --lab LAB --hidden N [--hidden-seed FILE] --out DIR\n"
          "\n"
          "The first form writes DIR/input0.raw.. and output.raw (computed in double precision)\n"
          "for a dataset of the lab's kind (matmul: SHAPE is MxKxN; reduction: N),\n"
          "deterministically from the seed, atomically. The second re-computes every dataset\n"
          "under each DIR with the lab's kind (default lab3) and reports any that disagree.\n"
          "The third writes the lab's first N hidden datasets, the ones a grading with the same\n"
          "secret makes (DIR/1 .. DIR/N, DIR made private): for a TA, never for students.\n",
          to);
}

static int generate(const lab_t *lab, const char *shape, unsigned long long seed,
                    const char *values, const char *out)
{
    value_kind_t kind;
    char err[1024], text[64];
    if (value_kind_parse(values, &kind) != 0) {
        fprintf(stderr, "cugrade dataset: bad --values '%s': course or signed\n", values);
        return EXIT_USAGE;
    }
    dataset_t d;
    if (lab->kind->generate(lab, shape, seed, kind, &d, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade dataset: --shape: %s\n", err);
        return EXIT_USAGE;
    }
    int rc = dataset_write(out, d.inputs, d.ninputs, &d.expected, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "cugrade dataset: %s\n", err);
    else {
        lab->kind->shape_text(lab, &d, text, sizeof text);
        printf("%s: %s %s (seed %llu, %s values)\n", out, lab->kind->name, text, seed, values);
    }
    dataset_free(&d);
    return rc == 0 ? 0 : EXIT_CANNOT_GRADE;
}

/* Checks every dataset under one folder; returns the number that failed. */
static int check_folder(const lab_t *lab, const char *dir, int *checked)
{
    dataset_ref_t *refs;
    int n, bad = 0;
    char err[2048];
    if (dataset_list(dir, &refs, &n, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL %s\n", err);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        dataset_t d;
        char shape[64];
        (*checked)++;
        if (dataset_load(&refs[i], lab->inputs, &d, err, sizeof err) != 0 ||
            lab->kind->check_shapes(lab, &refs[i], &d, err, sizeof err) != 0 ||
            lab->kind->verify(lab, &refs[i], &d, err, sizeof err) != 0) {
            printf("FAIL %s\n", err);
            bad++;
        } else {
            lab->kind->shape_text(lab, &d, shape, sizeof shape);
            printf("ok   %s (%s)\n", refs[i].dir, shape);
        }
        dataset_free(&d);
    }
    free(refs);
    return bad;
}

/* --hidden N: the hidden datasets a grading makes, into out (mode 0700). */
static int write_hidden(const lab_t *lab, int count, const char *seed_file, const char *out)
{
    char err[2048];
    hidden_secret_t *s = calloc(1, sizeof *s);
    int rc = !s ? fail(err, sizeof err, "out of memory")
                : hidden_secret_load(cugrade_root(), seed_file, s, err, sizeof err);
    if (rc == 0 && (rc = mkdir_p(out, err, sizeof err)) == 0 && chmod(out, 0700) != 0)
        rc = fail(err, sizeof err, "%s: cannot make it private: %s", out, strerror(errno));
    if (rc == 0)
        rc = hidden_set_generate(s, lab->name, lab, count, out, err, sizeof err);
    free(s);
    if (rc != 0) {
        fprintf(stderr, "cugrade dataset: %s\n", err);
        return EXIT_CANNOT_GRADE;
    }
    int checked = 0;
    return check_folder(lab, out, &checked) ? EXIT_CANNOT_GRADE : 0;
}

int cmd_dataset(int argc, char **argv)
{
    static const struct option opts[] = {
        {"lab", required_argument, 0, 'l'},   {"shape", required_argument, 0, 's'},
        {"seed", required_argument, 0, 'S'},  {"values", required_argument, 0, 'v'},
        {"out", required_argument, 0, 'o'},   {"check", no_argument, 0, 'c'},
        {"hidden", required_argument, 0, 'H'}, {"hidden-seed", required_argument, 0, 'K'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *lab = "lab3", *shape = NULL, *values = "course", *out = NULL, *seed_file = NULL;
    unsigned long long seed = 1;
    int check = 0, hidden = -1, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': lab = optarg; break;
        case 's': shape = optarg; break;
        case 'S': seed = strtoull(optarg, NULL, 0); break;
        case 'v': values = optarg; break;
        case 'o': out = optarg; break;
        case 'c': check = 1; break;
        case 'H': hidden = atoi(optarg); break;
        case 'K': seed_file = optarg; break;
        case 'h': dataset_usage(stdout); return 0;
        default: dataset_usage(stderr); return EXIT_USAGE;
        }
    }
    lab_t lab_info;
    char err[2048];
    if (lab_load(cugrade_root(), lab, &lab_info, err, sizeof err) != 0) {
        fprintf(stderr, "cugrade dataset: %s\n", err);
        return EXIT_CANNOT_GRADE;
    }
    if (check) {
        if (optind >= argc) {
            dataset_usage(stderr);
            return EXIT_USAGE;
        }
        int bad = 0, checked = 0;
        for (int i = optind; i < argc; i++)
            bad += check_folder(&lab_info, argv[i], &checked);
        printf("%d dataset%s checked, %d bad\n", checked, checked == 1 ? "" : "s", bad);
        return bad ? 1 : 0;
    }
    if (hidden >= 0 && out && optind == argc && hidden <= HIDDEN_MAX_COUNT)
        return write_hidden(&lab_info, hidden, seed_file, out);
    if (!shape || !out || optind != argc) {
        dataset_usage(stderr);
        return EXIT_USAGE;
    }
    return generate(&lab_info, shape, seed, values, out);
}

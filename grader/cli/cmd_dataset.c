/* cmd_dataset.c - `cugrade dataset`: generate a dataset, or re-check
 * existing ones against their inputs. */
#include "cli/commands.h"
#include "dataset/dataset.h"
#include "dataset/gen.h"
#include "util/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void dataset_usage(FILE *to)
{
    fputs("usage: cugrade dataset --lab lab3 --shape MxKxN [--seed S] [--values course|signed] --out DIR\n"
          "       cugrade dataset --check DIR...\n"
          "\n"
          "The first form writes DIR/input0.raw (MxK), input1.raw (KxN) and output.raw (MxN, the\n"
          "product computed in double precision), deterministically from the seed, atomically.\n"
          "The second re-computes every dataset under each DIR and reports any that disagree.\n",
          to);
}

static int generate(const char *lab, const char *shape, unsigned long long seed, const char *values,
                    const char *out)
{
    int m, k, n;
    value_kind_t kind;
    char err[1024];
    if (strcmp(lab, "lab3") != 0) {
        fprintf(stderr, "cugrade dataset: no generator for lab '%s' (known: lab3)\n", lab);
        return EXIT_USAGE;
    }
    if (parse_shape(shape, &m, &k, &n) != 0) {
        fprintf(stderr, "cugrade dataset: bad --shape '%s': expected MxKxN, e.g. 417x210x519\n", shape);
        return EXIT_USAGE;
    }
    if (value_kind_parse(values, &kind) != 0) {
        fprintf(stderr, "cugrade dataset: bad --values '%s': course or signed\n", values);
        return EXIT_USAGE;
    }
    if ((long)m * k > RAW_MAX_ELEMS || (long)k * n > RAW_MAX_ELEMS || (long)m * n > RAW_MAX_ELEMS) {
        fprintf(stderr, "cugrade dataset: shape %s is too large\n", shape);
        return EXIT_USAGE;
    }
    matrix_t mats[2], c;
    gen_matmul(m, k, n, seed, kind, &mats[0], &mats[1], &c);
    int rc = dataset_write(out, mats, 2, &c, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "cugrade dataset: %s\n", err);
    else
        printf("%s: %dx%d * %dx%d -> %dx%d (seed %llu, %s values)\n", out, m, k, k, n, m, n, seed, values);
    matrix_free(&mats[0]);
    matrix_free(&mats[1]);
    matrix_free(&c);
    return rc == 0 ? 0 : EXIT_CANNOT_GRADE;
}

/* Checks every dataset under one folder; returns the number that failed. */
static int check_folder(const char *dir, int *checked)
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
        if (dataset_load(&refs[i], 2, &d, err, sizeof err) != 0 ||
            check_matmul(&refs[i], &d, err, sizeof err) != 0) {
            printf("FAIL %s\n", err);
            bad++;
        } else {
            dataset_shape(&d, shape, sizeof shape);
            printf("ok   %s (%s)\n", refs[i].dir, shape);
        }
        dataset_free(&d);
    }
    free(refs);
    return bad;
}

int cmd_dataset(int argc, char **argv)
{
    static const struct option opts[] = {
        {"lab", required_argument, 0, 'l'},   {"shape", required_argument, 0, 's'},
        {"seed", required_argument, 0, 'S'},  {"values", required_argument, 0, 'v'},
        {"out", required_argument, 0, 'o'},   {"check", no_argument, 0, 'c'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *lab = "lab3", *shape = NULL, *values = "course", *out = NULL;
    unsigned long long seed = 1;
    int check = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': lab = optarg; break;
        case 's': shape = optarg; break;
        case 'S': seed = strtoull(optarg, NULL, 0); break;
        case 'v': values = optarg; break;
        case 'o': out = optarg; break;
        case 'c': check = 1; break;
        case 'h': dataset_usage(stdout); return 0;
        default: dataset_usage(stderr); return EXIT_USAGE;
        }
    }
    if (check) {
        if (optind >= argc) {
            dataset_usage(stderr);
            return EXIT_USAGE;
        }
        int bad = 0, checked = 0;
        for (int i = optind; i < argc; i++)
            bad += check_folder(argv[i], &checked);
        printf("%d dataset%s checked, %d bad\n", checked, checked == 1 ? "" : "s", bad);
        return bad ? 1 : 0;
    }
    if (!shape || !out || optind != argc) {
        dataset_usage(stderr);
        return EXIT_USAGE;
    }
    return generate(lab, shape, seed, values, out);
}

/* emucc_args.h - emucc's command line: growable argv lists (arglist) and
 * the option parser that sorts emucc's arguments into inputs and the flags
 * for compiling, for linking or for both. Header-only, included once, by
 * emu/tools/emucc.c (the Makefile builds bin/emucc from that file alone). */
#ifndef CUGRADE_EMUCC_ARGS_H
#define CUGRADE_EMUCC_ARGS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable, NULL-terminated list of owned strings (an argv). */
typedef struct {
    char **v;
    size_t n;
    size_t cap;
} arglist;

/* What the command line asks for. */
typedef struct {
    bool compile_only;
    bool verbose;
    bool checks;           /* --checks: instrument .cu files for the checking mode */
    bool make_pch;         /* --pch: precompile the emulator's header (emucc_pch.h) */
    const char *output;
    const char *keep_dir;
    arglist compile_flags; /* -I -D -U -include -isystem: compiling only */
    arglist common_flags;  /* -O -g -W -f -std ...: compiling and linking */
    arglist link_flags;    /* -l -L -Wl,...: linking, after the objects */
    arglist inputs;
} options;

static void die_oom(void)
{
    fputs("emucc: out of memory\n", stderr);
    exit(1);
}

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        die_oom();
    return p;
}

static char *xasprintf2(const char *a, const char *b)
{
    char *p;
    if (asprintf(&p, "%s%s", a, b) < 0)
        die_oom();
    return p;
}

static void args_push_owned(arglist *a, char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        char **v = realloc(a->v, a->cap * sizeof *v);
        if (!v)
            die_oom();
        a->v = v;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void args_push(arglist *a, const char *s) { args_push_owned(a, xstrdup(s)); }

static void args_extend(arglist *dst, const arglist *src)
{
    for (size_t i = 0; i < src->n; i++)
        args_push(dst, src->v[i]);
}

static void args_free(arglist *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    *a = (arglist){0};
}

/* Splits a command such as "ccache g++" at blanks. */
static void args_push_words(arglist *a, const char *command)
{
    char *copy = xstrdup(command);
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        args_push(a, w);
    free(copy);
}

static void usage(FILE *to)
{
    fputs("usage: emucc [-c] [-o OUT] [-I DIR] [-D X] [-O0..3] [-g] [-W...] [-fsanitize...]\n"
          "             [-v] [--checks] [--keep DIR] FILE... [-lLIB]\n"
          "       emucc [-v] --pch   (the emulator's header precompiled, for make)\n"
          "Compiles CUDA (.cu) files for the cugrade CPU emulator.\n"
          "--checks instruments the .cu files for the emulator's checking mode\n"
          "(-fsanitize=thread -O1 -g -fno-omit-frame-pointer -gdwarf-4 -fno-tree-sra,\n"
          "whatever -O is given; linked without libtsan); no -fsanitize of your own with it.\n",
          to);
}

/* ---- command line ------------------------------------------------------------ */

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* Options that take a value, either as the next argument or glued on after
 * `joiner` (-Ifoo, --keep=dir); a NULL joiner means only the next argument. */
typedef struct {
    const char *name;
    const char *joiner;
} valued_option;

static const valued_option valued_options[] = {
    { "-o", "" },  { "--keep", "=" }, { "-I", "" },         { "-D", "" },  { "-U", "" },
    { "-l", "" },  { "-L", "" },      { "-include", NULL }, { "-isystem", NULL },
};

/* The joined value of option opt in argument a, or NULL if a is not that. */
static const char *joined_value(const valued_option *opt, const char *a)
{
    if (!opt->joiner || !starts_with(a, opt->name) || !starts_with(a + strlen(opt->name), opt->joiner))
        return NULL;
    return a + strlen(opt->name) + strlen(opt->joiner);
}

static const valued_option *find_valued_option(const char *a)
{
    for (size_t k = 0; k < sizeof valued_options / sizeof *valued_options; k++) {
        const valued_option *opt = &valued_options[k];
        if (strcmp(a, opt->name) == 0 || joined_value(opt, a))
            return opt;
    }
    return NULL;
}

/* The value of opt at argv[*i], consuming the next argument if it is
 * separate. NULL if it has none. */
static const char *option_value(int argc, char **argv, int *i, const valued_option *opt)
{
    if (strcmp(argv[*i], opt->name) == 0)
        return *i + 1 < argc ? argv[++*i] : NULL;
    return joined_value(opt, argv[*i]);
}

static void store_valued_option(options *o, const char *name, const char *value)
{
    if (strcmp(name, "-o") == 0)
        o->output = value;
    else if (strcmp(name, "--keep") == 0)
        o->keep_dir = value;
    else if (strcmp(name, "-l") == 0 || strcmp(name, "-L") == 0)
        args_push_owned(&o->link_flags, xasprintf2(name, value));
    else if (strcmp(name, "-include") == 0 || strcmp(name, "-isystem") == 0) {
        args_push(&o->compile_flags, name);
        args_push(&o->compile_flags, value);
    } else
        args_push_owned(&o->compile_flags, xasprintf2(name, value));
}

/* --checks brings its own -fsanitize=thread, which must stay off the link:
 * any -fsanitize of the user's would either clash with it or reach the link.
 * Returns 0, or -1 after saying so. */
static int check_mode_conflicts(const options *o)
{
    for (size_t i = 0; o->checks && i < o->common_flags.n; i++) {
        if (starts_with(o->common_flags.v[i], "-fsanitize=")) {
            fprintf(stderr, "emucc: --checks cannot be combined with %s\n", o->common_flags.v[i]);
            return -1;
        }
    }
    return 0;
}

/* Fills o from argv. Returns 0, or -1 after printing what is wrong. */
static int parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const valued_option *opt = find_valued_option(a);
        if (a[0] != '-' || a[1] == '\0') {
            args_push(&o->inputs, a);
        } else if (strcmp(a, "-c") == 0) {
            o->compile_only = true;
        } else if (strcmp(a, "-v") == 0) {
            o->verbose = true;
        } else if (strcmp(a, "--checks") == 0) {
            o->checks = true;
        } else if (strcmp(a, "--pch") == 0) {
            o->make_pch = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (opt) {
            const char *value = option_value(argc, argv, &i, opt);
            if (!value || !*value) {
                fprintf(stderr, "emucc: missing argument to %s\n", opt->name);
                return -1;
            }
            store_valued_option(o, opt->name, value);
        } else if (starts_with(a, "-Wl,") || starts_with(a, "-Xlinker")) {
            args_push(&o->link_flags, a);
        } else {
            args_push(&o->common_flags, a); /* -O2 -g -Wall -fsanitize=... -std=... */
        }
    }
    if (o->inputs.n == 0 && !o->make_pch) {
        fputs("emucc: no input files\n", stderr);
        usage(stderr);
        return -1;
    }
    return check_mode_conflicts(o);
}

#endif

/* emucc.c - the CPU emulator's compiler driver. Compiles CUDA files (.cu)
 * with the host C++ compiler after emu_rewrite() has turned kernel launches
 * into C++, and links the objects with the emulator runtime:
 *
 *   emucc [-c] [-o OUT] [-I DIR] [-D X] [-O0..3] [-g] [-W...] [-fsanitize...]
 *         [-v] [--checks] [--keep DIR] FILE... [-lLIB]
 *
 * A .cu file is rewritten to a temporary .cpp (under $TMPDIR, or in the
 * --keep directory, which is not cleaned up) and compiled with
 *   ${CUGRADE_CXX:-g++} -std=c++17 -x c++ -O2 -include cugrade_emu.h
 *                       -Wno-unknown-pragmas -I<root>/emu/include <user flags>
 * plus -iquote <the .cu's directory> (so #include "x.h" finds its neighbours);
 * .cpp files go to the same compiler without the forced include, .c files to
 * ${CUGRADE_CC:-gcc}; anything else (.o, .a, ...) goes to the link. Without
 * -c everything is linked with <root>/build/libcugrade_emu.a -lpthread -lm
 * into OUT (default a.out). <root> is the directory above the one holding
 * this executable, or $CUGRADE_ROOT. The compiler's messages reach stderr
 * unchanged and already name the student's file:line (the rewrite starts
 * with a #line directive). Exit status: the failing compiler's, 1 for a
 * rewrite or usage error, else 0. -v prints each command before running it.
 *
 * --checks builds for the emulator's checking mode (emu/src/check.h): each
 * .cu file is compiled with -fsanitize=thread -O1 -g -fno-omit-frame-pointer
 * (and -gdwarf-4 -fno-tree-sra, see push_check_flags) instead of -O2,
 * those flags placed after the user's, so -O1 holds whatever -O was given
 * and the checks see the same accesses for every student (-O0
 * would also send every local variable through the hooks; -O2 and above
 * vectorise and merge accesses, which blurs lanes and lines). The program
 * is linked WITHOUT -fsanitize=thread: the runtime defines the __tsan_*
 * hooks the instrumentation calls, and libtsan must never be linked. .cpp
 * and .c files are compiled as usual. A -fsanitize flag of the user's is an
 * error with --checks. The flag is command-line only: no environment
 * variable sets it. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emucc_args.h"
#include "emucc_pch.h"
#include "util/util.h"
#include "launch_rewrite.h"

/* Where and with what emucc builds. */
typedef struct {
    char root[PATH_MAX];
    char work_dir[PATH_MAX]; /* where rewritten sources and temporary objects go */
    bool work_dir_is_temp;
    arglist cxx;             /* the C++ compiler command, split into words */
    arglist cc;              /* the C compiler command */
    arglist temp_files;      /* removed at exit unless --keep */
} build_env;

/* ---- files and paths --------------------------------------------------------- */

static const char *file_extension(const char *path)
{
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base + 1 : path, '.');
    return dot ? dot : "";
}

typedef enum { INPUT_CUDA, INPUT_CXX, INPUT_C, INPUT_LINK } input_kind;

static input_kind classify_input(const char *path)
{
    const char *ext = file_extension(path);
    if (strcmp(ext, ".cu") == 0)
        return INPUT_CUDA;
    if (strcmp(ext, ".cpp") == 0 || strcmp(ext, ".cc") == 0 || strcmp(ext, ".cxx") == 0 || strcmp(ext, ".C") == 0)
        return INPUT_CXX;
    if (strcmp(ext, ".c") == 0)
        return INPUT_C;
    return INPUT_LINK;
}

/* Base name of path without its extension, as a new string. */
static char *file_stem(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *stem = xstrdup(slash ? slash + 1 : path);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
        *dot = '\0';
    return stem;
}

/* ---- environment: root, compilers, work directory ---------------------------- */

static int find_root(char *root, size_t n)
{
    const char *env = getenv("CUGRADE_ROOT");
    if (env && *env)
        return snprintf(root, n, "%s", env) < (int)n ? 0 : -1;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return -1;
    exe[len] = '\0';
    char *bin_dir = dirname(exe); /* <root>/bin */
    return snprintf(root, n, "%s", dirname(bin_dir)) < (int)n ? 0 : -1;
}

static int make_work_dir(const options *o, build_env *env)
{
    if (o->keep_dir) {
        env->work_dir_is_temp = false;
        if (snprintf(env->work_dir, sizeof env->work_dir, "%s", o->keep_dir) >= (int)sizeof env->work_dir)
            return -1;
        return mkdir_p(env->work_dir, NULL, 0);
    }
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(env->work_dir, sizeof env->work_dir, "%s/emucc-XXXXXX", tmp) >= (int)sizeof env->work_dir)
        return -1;
    env->work_dir_is_temp = true;
    return mkdtemp(env->work_dir) ? 0 : -1;
}

static int setup_env(const options *o, build_env *env)
{
    if (find_root(env->root, sizeof env->root) != 0) {
        fputs("emucc: cannot find the cugrade root (set CUGRADE_ROOT)\n", stderr);
        return -1;
    }
    const char *cxx = getenv("CUGRADE_CXX"), *cc = getenv("CUGRADE_CC");
    args_push_words(&env->cxx, cxx && *cxx ? cxx : "g++");
    args_push_words(&env->cc, cc && *cc ? cc : "gcc");
    if (make_work_dir(o, env) != 0) {
        fprintf(stderr, "emucc: cannot create work directory %s: %s\n", env->work_dir, strerror(errno));
        return -1;
    }
    return 0;
}

static void cleanup_env(build_env *env)
{
    if (env->work_dir_is_temp) {
        for (size_t i = 0; i < env->temp_files.n; i++)
            unlink(env->temp_files.v[i]);
        rmdir(env->work_dir);
    }
    args_free(&env->cxx);
    args_free(&env->cc);
    args_free(&env->temp_files);
}

/* A new path in the work directory: <work>/<index>-<stem><suffix>. The index
 * keeps a/x.cu and b/x.cu apart. */
static char *work_path(build_env *env, size_t index, const char *input, const char *suffix)
{
    char *stem = file_stem(input), *path;
    if (asprintf(&path, "%s/%zu-%s%s", env->work_dir, index, stem, suffix) < 0)
        die_oom();
    free(stem);
    args_push(&env->temp_files, path);
    return path;
}

/* ---- running commands -------------------------------------------------------- */

/* Prints argv on one line, quoting the words a shell would split. */
static void print_command(char *const *argv)
{
    for (size_t i = 0; argv[i]; i++) {
        bool plain = argv[i][0] && argv[i][strcspn(argv[i], " \t'\"\\$`")] == '\0';
        const char *quote = plain ? "" : "'";
        fprintf(stderr, "%s%s%s%s", i ? " " : "", quote, argv[i], quote);
    }
    fputc('\n', stderr);
}

/* Runs argv and returns its exit status (128+signal if killed). */
static int run_command(const arglist *cmd, bool verbose)
{
    if (verbose)
        print_command(cmd->v);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("emucc: fork");
        return 1;
    }
    if (pid == 0) {
        execvp(cmd->v[0], cmd->v);
        fprintf(stderr, "emucc: cannot run %s: %s\n", cmd->v[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

/* ---- the build --------------------------------------------------------------- */

/* Rewrites a .cu file into a .cpp in the work directory; returns its path, or
 * NULL after printing the rewrite error. */
static char *rewrite_cuda(build_env *env, size_t index, const char *input, bool verbose)
{
    size_t len;
    char err[PATH_MAX + 256];
    char *src = read_file(input, &len, err, sizeof err);
    if (!src) {
        fprintf(stderr, "emucc: %s\n", err);
        return NULL;
    }
    char *text = emu_rewrite(src, len, input, err, sizeof err);
    free(src);
    if (!text) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    char *cpp = work_path(env, index, input, ".cu.cpp");
    if (verbose)
        fprintf(stderr, "emucc: rewrite %s -> %s\n", input, cpp);
    int rc = write_file_atomic(cpp, text, strlen(text), err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "emucc: %s\n", err);
        free(cpp);
        return NULL;
    }
    return cpp;
}

/* -iquote with the directory of path: the rewritten copy lives elsewhere, but
 * #include "x.h" must still find the files next to the student's .cu. */
static char *quote_dir_of(const char *path)
{
    char *copy = xstrdup(path);
    char *flag = xasprintf2("-iquote", dirname(copy));
    free(copy);
    return flag;
}

/* The instrumentation of --checks; after the user's flags, so its -O1 wins.
 * -fno-tree-sra keeps a copy of a whole struct one access: a float4 load is
 * one 16-byte access (checked for its alignment, analysed as one vector
 * access for coalescing) instead of four float loads 16 bytes apart.
 * -gdwarf-4: with gcc 12's default DWARF 5, binutils 2.40's addr2line puts
 * the first lines of a function in the rewritten copy (1-x.cu.cpp:29)
 * instead of the file its #line names (x.cu:29); DWARF 4 has no such slip. */
static void push_check_flags(arglist *cmd)
{
    static const char *const flags[] = {
        "-fsanitize=thread", "-O1", "-g", "-fno-omit-frame-pointer", "-gdwarf-4", "-fno-tree-sra",
    };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        args_push(cmd, flags[i]);
}

/* The compile command for one source of the given kind; for a .cu file,
 * source is the rewritten copy of input. */
static void compile_command(arglist *cmd, const options *o, const build_env *env, input_kind kind,
                            const char *input, const char *source, const char *object)
{
    args_extend(cmd, kind == INPUT_C ? &env->cc : &env->cxx);
    if (kind != INPUT_C)
        args_push(cmd, "-std=c++17");
    if (kind == INPUT_CUDA) {
        args_push(cmd, "-x");
        args_push(cmd, "c++");
    }
    bool instrument = o->checks && kind == INPUT_CUDA;
    if (!instrument)
        args_push(cmd, "-O2");
    if (kind == INPUT_CUDA) { /* nvcc's own pragmas (nv_diag_suppress, ...) mean nothing to g++ */
        char *pch = pch_dir(o, env->root); /* its cugrade_emu.h.gch, when it may serve */
        args_push(cmd, "-include");
        args_push_owned(cmd, pch ? xasprintf2(pch, "/" PCH_HEADER) : xstrdup(PCH_HEADER));
        free(pch);
        args_push(cmd, "-Wno-unknown-pragmas");
        args_push_owned(cmd, quote_dir_of(input));
    }
    char *include_dir = xasprintf2("-I", env->root);
    args_push_owned(cmd, xasprintf2(include_dir, "/emu/include"));
    free(include_dir);
    args_extend(cmd, &o->common_flags);
    if (instrument)
        push_check_flags(cmd);
    args_extend(cmd, &o->compile_flags);
    args_push(cmd, "-c");
    args_push(cmd, source);
    args_push(cmd, "-o");
    args_push(cmd, object);
}

/* Where the object of inputs[index] goes: -o, <stem>.o in the current
 * directory with -c, else a temporary. */
static char *object_path(const options *o, build_env *env, size_t index)
{
    const char *input = o->inputs.v[index];
    if (!o->compile_only)
        return work_path(env, index, input, ".o");
    if (o->output)
        return xstrdup(o->output);
    char *stem = file_stem(input);
    char *obj = xasprintf2(stem, ".o");
    free(stem);
    return obj;
}

/* Compiles inputs[index] (if it is a source) and adds what the link needs to
 * link_inputs. Returns 0 or the failing exit status. */
static int build_input(const options *o, build_env *env, size_t index, arglist *link_inputs)
{
    const char *input = o->inputs.v[index];
    input_kind kind = classify_input(input);
    if (kind == INPUT_LINK) {
        args_push(link_inputs, input);
        return 0;
    }
    char *source = kind == INPUT_CUDA ? rewrite_cuda(env, index, input, o->verbose) : xstrdup(input);
    if (!source)
        return 1;
    char *object = object_path(o, env, index);
    arglist cmd = {0};
    compile_command(&cmd, o, env, kind, input, source, object);
    int rc = run_command(&cmd, o->verbose);
    args_free(&cmd);
    args_push(link_inputs, object);
    free(object);
    free(source);
    return rc;
}

static int link_program(const options *o, const build_env *env, const arglist *link_inputs)
{
    char *runtime = xasprintf2(env->root, "/build/libcugrade_emu.a");
    if (access(runtime, R_OK) != 0) {
        fprintf(stderr, "emucc: %s is missing; build the emulator runtime first (make %s)\n", runtime,
                "build/libcugrade_emu.a");
        free(runtime);
        return 1;
    }
    arglist cmd = {0};
    args_extend(&cmd, &env->cxx);
    args_extend(&cmd, &o->common_flags);
    args_push(&cmd, "-o");
    args_push(&cmd, o->output ? o->output : "a.out");
    args_extend(&cmd, link_inputs);
    args_extend(&cmd, &o->link_flags);
    args_push_owned(&cmd, runtime);
    args_push(&cmd, "-lpthread");
    args_push(&cmd, "-lm");
    int rc = run_command(&cmd, o->verbose);
    args_free(&cmd);
    return rc;
}

/* `emucc --pch`: the emulator's header precompiled for each way a .cu file
 * is compiled (emucc_pch.h), with the flags compile_command gives; g++ only.
 * Returns 0 or the failing status. */
static int make_pch(const options *o, const build_env *env)
{
    const char *cxx = getenv("CUGRADE_CXX");
    if (cxx && *cxx) {
        fprintf(stderr, "emucc --pch: the header is precompiled for g++ only (CUGRADE_CXX=%s)\n", cxx);
        return 1;
    }
    int rc = 0;
    for (int checks = 0; checks < 2 && rc == 0; checks++) {
        char *dir = pch_folder(env->root, checks), *header = xasprintf2(dir, "/" PCH_HEADER);
        char *gch = xasprintf2(header, ".gch"), *tmp = xasprintf2(gch, ".tmp");
        static const char forward[] = "/* emucc_pch.h: read when g++ rejects the .gch beside it */\n"
                                      "#include <" PCH_HEADER ">\n";
        char err[512];
        if (mkdir_p(dir, err, sizeof err) != 0 ||
            write_file_atomic(header, forward, strlen(forward), err, sizeof err) != 0) {
            fprintf(stderr, "emucc --pch: %s\n", err);
            rc = 1;
        } else {
            arglist cmd = {0};
            args_extend(&cmd, &env->cxx);
            args_push(&cmd, "-std=c++17");
            args_push(&cmd, "-x");
            args_push(&cmd, "c++-header");
            if (!checks)
                args_push(&cmd, "-O2");
            args_push(&cmd, "-Wno-unknown-pragmas");
            char *include_dir = xasprintf2("-I", env->root);
            args_push_owned(&cmd, xasprintf2(include_dir, "/emu/include"));
            free(include_dir);
            if (checks)
                push_check_flags(&cmd);
            args_push(&cmd, header);
            args_push(&cmd, "-o");
            args_push(&cmd, tmp);
            rc = run_command(&cmd, o->verbose);
            args_free(&cmd);
            if (rc == 0 && rename(tmp, gch) != 0) {
                fprintf(stderr, "emucc --pch: cannot rename %s: %s\n", tmp, strerror(errno));
                rc = 1;
            }
            unlink(tmp);
        }
        free(dir);
        free(header);
        free(gch);
        free(tmp);
    }
    return rc;
}

static size_t count_sources(const options *o)
{
    size_t n = 0;
    for (size_t i = 0; i < o->inputs.n; i++)
        n += classify_input(o->inputs.v[i]) != INPUT_LINK;
    return n;
}

static int build(const options *o, build_env *env)
{
    arglist link_inputs = {0};
    int rc = 0;
    for (size_t i = 0; i < o->inputs.n && rc == 0; i++)
        rc = build_input(o, env, i, &link_inputs);
    if (rc == 0 && !o->compile_only)
        rc = link_program(o, env, &link_inputs);
    args_free(&link_inputs);
    return rc;
}

int main(int argc, char **argv)
{
    options o = {0};
    build_env env = {0};
    if (parse_args(argc, argv, &o) != 0)
        return 1;
    if (o.compile_only && o.output && count_sources(&o) > 1) {
        fputs("emucc: cannot specify -o with -c and several source files\n", stderr);
        return 1;
    }
    if (setup_env(&o, &env) != 0)
        return 1;
    int rc = o.make_pch ? make_pch(&o, &env) : build(&o, &env);
    cleanup_env(&env);
    args_free(&o.compile_flags);
    args_free(&o.common_flags);
    args_free(&o.link_flags);
    args_free(&o.inputs);
    return rc;
}

/* build.c - compile the lab driver (cached) and the student file, and link.
 *
 * emu: bin/emucc (rewrites <<<>>> and compiles with the host C++ compiler
 *      against the emulator's headers, links build/libcugrade_emu.a).
 * gpu: nvcc -O3 -lineinfo -arch=<CUGRADE_NVCC_ARCH or native>.
 * vgpu: nvcc -c as gpu (the host object, -arch=sm_90 unless set) with
 *      --keep: its PTX is what the executor runs; linked with the kind's vgpu_main.cu
 *      (or a libwb program with wb_io.cu -DCUGRADE_VGPU) and
 *      build/libcugrade_vcudart.a instead of libcudart (issue 39).
 * Every compiler runs as a child with limits (tool.h); its messages (which
 * name the student's file:line) become the "compiles" test's output. A
 * submission's source is checked before it is compiled (srccheck.h), its
 * object before it is linked (objcheck.h); the lab's rules (rules.h) at each
 * stage (build_rules.h). */
#include "build/build.h"
#include "build/readable_copy.h"
#include "build/build_rules.h"
#include "build/harness_flags.h"
#include "build/objcheck.h"
#include "build/srccheck.h"
#include "build/tool.h"
#include "kinds/kind.h"
#include "run/sandbox.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define COMPILE_LIMIT_S 180.0
#define PREPROCESSED_LIMIT ((size_t)32 << 20) /* a submission's -E output */

static int compiler_path(const build_ctx_t *ctx, char *out, size_t outlen)
{
    return build_compiler_path(ctx->root, ctx->backend, out, outlen);
}

/* The harness's own source: the lab's driver (kernel labs), or wb.h's
 * file I/O, labs/common/wb_io.cu (program labs: the student's file is
 * the program, and its object may not touch files itself). */
static void driver_source(const build_ctx_t *ctx, char *out, size_t outlen)
{
    if (lab_is_program(ctx->lab))
        snprintf(out, outlen, "%s/labs/common/wb_io.cu", ctx->root);
    else if (ctx->backend == BACKEND_VGPU) /* the kind's program on the executor */
        snprintf(out, outlen, "%s/%s", ctx->root, ctx->lab->kind->vgpu_main);
    else
        snprintf(out, outlen, "%s", ctx->lab->driver_path);
}

/* Newest modification time among the inputs the cached driver depends on
 * (the compiler cc among them: a new or replaced nvcc rebuilds it). */
static double driver_inputs_mtime(const build_ctx_t *ctx, const char *cc, const char *src)
{
    static const char *const emu_deps[] = {"emu/include/cuda_runtime.h", "build/libcugrade_emu.a",
                                           "bin/emucc"};
    double times[3 + sizeof emu_deps / sizeof emu_deps[0]];
    int n = 0;
    times[n++] = build_mtime(src);
    times[n++] = build_mtime(cc);
    times[n++] = harness_common_mtime(ctx->root); /* harness.h and the headers beside it */
    for (size_t i = 0; ctx->backend == BACKEND_EMU && i < sizeof emu_deps / sizeof emu_deps[0]; i++) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", ctx->root, emu_deps[i]);
        times[n++] = build_mtime(p);
    }
    double newest = harness_lab_mtime(ctx->lab); /* its flags, and launch.h beside the driver */
    for (int i = 0; i < n; i++)
        if (times[i] > newest)
            newest = times[i];
    return newest;
}

static void driver_cache_path(const build_ctx_t *ctx, char *out, size_t outlen)
{
    if (ctx->backend == BACKEND_EMU)
        snprintf(out, outlen, "%s/build/emu/labs/%s/driver.o", ctx->root, ctx->lab->name);
    else if (ctx->backend == BACKEND_VGPU)
        snprintf(out, outlen, "%s/build/vgpu-%s/labs/%s/driver.o", ctx->root, build_vgpu_arch(),
                 ctx->lab->name);
    else
        snprintf(out, outlen, "%s/build/gpu-%s/labs/%s/driver.o", ctx->root, build_nvcc_arch(),
                 ctx->lab->name);
}

/* Compiles the lab driver src into obj: to a private name, then renamed, so
 * concurrent graders never see a half-written object. */
static int compile_driver(const build_ctx_t *ctx, const char *cc, const char *src, const char *obj,
                          strbuf_t *log, char *failed, size_t failedlen)
{
    char tmp[PATH_MAX + 32], inc[PATH_MAX + 8];
    if (temp_path_for(tmp, sizeof tmp, obj, ".o") != 0) {
        sb_appendf(log, "cannot cache the lab driver: %s: path too long\n", obj);
        return -1;
    }
    snprintf(inc, sizeof inc, "-I%s/labs/common", ctx->root);
    char arch[64];
    snprintf(arch, sizeof arch, "-arch=%s", ctx->backend == BACKEND_VGPU ? build_vgpu_arch()
                                                                          : build_nvcc_arch());
    char flags[HARNESS_MAX_FLAGS][HARNESS_FLAG_LEN]; /* -DCUGRADE_LAUNCH=..., ... */
    int nflags = harness_flags(ctx->lab, flags), n = 2;
    char *argv[20] = {(char *)cc, "-c"};
    if (ctx->backend == BACKEND_EMU) {
        argv[n++] = "-O2";
    } else if (ctx->backend == BACKEND_VGPU) { /* wb_io.cu hands wbSolution to the executor */
        argv[n++] = "-O2";
        argv[n++] = arch;
        argv[n++] = "-DCUGRADE_VGPU";
    } else {
        argv[n++] = "-O3";
        argv[n++] = "-lineinfo";
        argv[n++] = arch;
    }
    argv[n++] = inc;
    for (int i = 0; i < nflags; i++)
        argv[n++] = flags[i];
    char header[4100];
    if (ctx->lab->array.nargs > 0) { /* an array lab's call: a header beside the object */
        snprintf(header, sizeof header, "%.4000s.call.h", tmp);
        if (harness_array_header_write(ctx->lab, header, log) != 0)
            return -1;
        argv[n++] = "-include";
        argv[n++] = header;
    }
    char *rest[] = {(char *)src, "-o", tmp, NULL};
    memcpy(argv + n, rest, sizeof rest);
    strbuf_t dlog = {0};
    int rc = tool_run(argv, ctx->timeout_s, &tool_harness_limits, &dlog, failed, failedlen);
    if (ctx->lab->array.nargs > 0)
        unlink(header);
    if (rc == 0 && rename(tmp, obj) != 0)
        rc = -1;
    if (rc != 0) {
        unlink(tmp);
        sb_appendf(log, "%s %s does not build on the %s backend (not the student's fault)\n%s",
                   lab_is_program(ctx->lab) ? "the libwb harness" : "the lab driver", src,
                   backend_name(ctx->backend), sb_str(&dlog));
    }
    sb_free(&dlog);
    return rc;
}

/* Builds the lab driver object unless an up-to-date one is cached, one
 * grader at a time: those that start together wait for the first and find
 * it made. */
static int ensure_driver(const build_ctx_t *ctx, const char *cc, char *obj, size_t objlen,
                         strbuf_t *log, char *failed, size_t failedlen)
{
    char src[PATH_MAX];
    driver_source(ctx, src, sizeof src);
    driver_cache_path(ctx, obj, objlen);
    if (build_mtime(obj) >= driver_inputs_mtime(ctx, cc, src))
        return 0;
    int lock = build_cache_lock(obj, "cannot cache the lab driver: ", log);
    if (lock == BUILD_CACHE_NO_DIR)
        return -1;
    int rc = build_mtime(obj) >= driver_inputs_mtime(ctx, cc, src)
                 ? 0
                 : compile_driver(ctx, cc, src, obj, log, failed, failedlen);
    file_unlock(lock);
    return rc;
}

typedef struct {
    char incdir[PATH_MAX + 8], common[PATH_MAX + 16], arch[64], keep_dir[PATH_MAX];
    char *argv[24];
} student_cmd_t;

/* What a compile of the student's file makes: its object, or what the
 * compiler makes of it before compiling. */
enum { MAKE_OBJECT = 0, MAKE_PREPROCESSED = 1 };

/* The command that compiles the student's file src into out, or with
 * MAKE_PREPROCESSED, that writes what the compiler makes of it before
 * compiling (the host side's on the gpu backend, what gcc compiles) into
 * out. On the vgpu backend the compile keeps its intermediate files beside
 * out (--keep): the PTX the executor runs is this compile's, the one whose
 * SASS is in the object (vgpu_ptx_path). */
static void student_command(const build_ctx_t *ctx, const char *cc, const char *src,
                            const char *out, int what, student_cmd_t *c)
{
    int preprocess = what == MAKE_PREPROCESSED;
    const char *slash = strrchr(src, '/');
    if (slash)
        snprintf(c->incdir, sizeof c->incdir, "-I%.*s", (int)(slash - src), src);
    else
        snprintf(c->incdir, sizeof c->incdir, "-I.");
    /* labs/common: wb.h for libwb-style programs (after the student's folder) */
    snprintf(c->common, sizeof c->common, "-I%s/labs/common", ctx->root);
    snprintf(c->arch, sizeof c->arch, "-arch=%s", ctx->backend == BACKEND_VGPU ? build_vgpu_arch()
                                                                               : build_nvcc_arch());
    int n = 0, gpu = ctx->backend != BACKEND_EMU;
    c->argv[n++] = (char *)cc;
    if (preprocess)
        c->argv[n++] = "-E";
    if (preprocess && gpu) { /* nvcc -E is the device side's: these make it the host's */
        c->argv[n++] = "-U__CUDA_ARCH__";
        c->argv[n++] = "-UCUDA_DOUBLE_MATH_FUNCTIONS";
    }
    c->argv[n++] = "-c";
    if (!gpu) { /* emucc --checks compiles at -O1 with the access hooks of the checking mode */
        c->argv[n++] = ctx->checks ? "--checks" : "-O2";
    } else { /* -Xptxas -v: the resource report (registers, shared memory, spills) per kernel;
              * -lineinfo: the .loc lines of the PTX, which the executor's findings name */
        if (ctx->backend == BACKEND_VGPU && what == MAKE_OBJECT) {
            path_dir(out, c->keep_dir, sizeof c->keep_dir);
            c->argv[n++] = "--keep";
            c->argv[n++] = "--keep-dir";
            c->argv[n++] = c->keep_dir;
            /* the host code's line tables, for addr2line (run/host_lines.h): a host call the
             * executor names by its address is named by its line (DWARF 4: binutils 2.40 misreads
             * g++ 12's DWARF 5 line tables) */
            c->argv[n++] = "-g";
            c->argv[n++] = "-Xcompiler";
            c->argv[n++] = "-gdwarf-4";
        }
        char *flags[] = {"-O3", "-lineinfo", c->arch, "-Xptxas", "-v"};
        for (int i = 0; i < 5; i++)
            c->argv[n++] = flags[i];
    }
    char *rest[] = {c->incdir, c->common, (char *)src, "-o", (char *)out, NULL};
    for (int i = 0; i < 6; i++)
        c->argv[n++] = rest[i];
}

/* The compile jail's view (tool.h) for a build that reads the submission
 * src: the submission's own folder, the lab's headers, the emulator's
 * headers, compiler and library, CUGRADE_CXX's compiler and extra (the
 * harness's object, when linking), read-only; the scratch folder
 * writable. It starts in the grader's working folder, which inside is empty
 * but for those paths, so the paths given (and the file names in messages)
 * stay as they are. The checkout's reference/, datasets/ and .cugrade/ (the
 * hidden set's secret) are covered even where the submission's folder holds
 * them. */
typedef struct {
    char src_dir[PATH_MAX], cwd[PATH_MAX], common[PATH_MAX], emu_inc[PATH_MAX];
    char emu_lib[PATH_MAX], emu_pch[PATH_MAX], cxx[PATH_MAX], copy[PATH_MAX], out_dir[PATH_MAX];
    char vcudart[PATH_MAX];
    const char *shown[10];
    tool_jail_t jail;
} student_jail_t;

static const tool_jail_t *student_jail(const build_ctx_t *ctx, const char *src, const char *extra,
                                       student_jail_t *j)
{
    path_dir(src, j->src_dir, sizeof j->src_dir);
    if (!getcwd(j->cwd, sizeof j->cwd))
        snprintf(j->cwd, sizeof j->cwd, "/");
    snprintf(j->common, sizeof j->common, "%.4000s/labs/common", ctx->root);
    snprintf(j->emu_inc, sizeof j->emu_inc, "%.4000s/emu/include", ctx->root);
    snprintf(j->emu_lib, sizeof j->emu_lib, "%.4000s/build/libcugrade_emu.a", ctx->root);
    /* the emulator's header precompiled (emu/tools/emucc_pch.h; not there: not shown) */
    snprintf(j->emu_pch, sizeof j->emu_pch, "%.4000s/build/emu-pch", ctx->root);
    snprintf(j->vcudart, sizeof j->vcudart, "%.4000s/build/libcugrade_vcudart.a", ctx->root);
    static const char *const covered[] = {"datasets", "reference", ".cugrade", NULL};
    for (int i = 0; covered[i]; i++) {
        char hide[PATH_MAX];
        snprintf(hide, sizeof hide, "%.4000s/%s", ctx->root, covered[i]);
        sandbox_hide_dir(hide);
    }
    const char *cxx = getenv("CUGRADE_CXX");
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%.*s", cxx ? (int)strcspn(cxx, " \t") : 0, cxx ? cxx : "");
    if (!name[0] || find_program(name, j->cxx, sizeof j->cxx) != 0)
        j->cxx[0] = '\0';
    /* a folder the sandbox's uid cannot read: a copy of it, at its place */
    char why[256];
    int copied = readable_copy(j->src_dir, ctx->scratch, j->copy, sizeof j->copy, why,
                                  sizeof why) == 1;
    const char *shown[] = {copied ? j->common : j->src_dir, j->common, j->emu_inc, j->emu_lib,
                           j->emu_pch, j->vcudart, j->cxx, extra, NULL};
    memcpy(j->shown, shown, sizeof shown);
    build_out_dir(ctx, j->out_dir, sizeof j->out_dir);
    sandbox_cover_dir(ctx->scratch); /* only its build folder, writable, is shown in it */
    j->jail = (tool_jail_t){.cwd = j->cwd, .write_dir = j->out_dir, .ro_paths = j->shown,
                            .copy_from = copied ? j->copy : NULL,
                            .copy_at = copied ? j->src_dir : NULL};
    return &j->jail;
}

/* 0; -1 the compiler failed (the submission's error); -2 its sandbox did
 * not start (a grader fault). */
static int compile_student(const build_ctx_t *ctx, const char *cc, const char *src,
                           const char *obj, int what, strbuf_t *log, char *failed,
                           size_t failedlen)
{
    student_cmd_t c;
    student_command(ctx, cc, src, obj, what, &c);
    tool_limits_t lim = tool_submission_limits(TOOL_FILE_LIMIT);
    student_jail_t j;
    return tool_run_in(student_jail(ctx, src, NULL, &j), c.argv, ctx->timeout_s, &lim, log,
                       failed, failedlen);
}

/* The install prefix of the backend's compiler (/usr for /usr/bin/g++,
 * /usr/local/cuda-13.0 for its nvcc): its headers are the toolchain's. */
static void toolchain_prefix(const build_ctx_t *ctx, const char *cc, char *out, size_t outlen)
{
    char name[PATH_MAX], found[PATH_MAX], real[PATH_MAX];
    if (ctx->backend == BACKEND_EMU) /* emucc's host compiler */
        build_host_compiler(name, sizeof name);
    else
        snprintf(name, sizeof name, "%s", cc);
    snprintf(out, outlen, "/usr");
    if (find_program(name, found, sizeof found) != 0 || !realpath(found, real))
        return;
    for (int i = 0; i < 2; i++) /* <prefix>/bin/nvcc */
        *(strrchr(real, '/') ? strrchr(real, '/') : real) = '\0';
    if (strlen(real) > 1)
        snprintf(out, outlen, "%s", real);
}

/* Runs the preprocessor as the compile would (student_command) and checks
 * its output (srccheck_expanded): 0 allowed, 1 refused (r says why), -1
 * it failed (its messages are in the log: the student's), -2 a grader fault. */
static int check_preprocessed(const build_ctx_t *ctx, const char *cc, const char *src,
                              const char *prefix, strbuf_t *log, srccheck_result_t *r)
{
    char out[PATH_MAX], folder[PATH_MAX], common[PATH_MAX], emu[PATH_MAX], err[256];
    char dir[PATH_MAX];
    build_out_dir(ctx, dir, sizeof dir);
    snprintf(out, sizeof out, "%.4000s/student.i", dir);
    student_cmd_t c;
    student_command(ctx, cc, src, out, MAKE_PREPROCESSED, &c);
    tool_limits_t lim = tool_submission_limits(PREPROCESSED_LIMIT);
    strbuf_t plog = {0};
    student_jail_t j;
    int rc = tool_run_in(student_jail(ctx, src, NULL, &j), c.argv, ctx->timeout_s, &lim, &plog,
                         NULL, 0);
    if (rc != 0)
        sb_appendf(log, "%s", sb_str(&plog));
    sb_free(&plog);
    size_t len = 0;
    char *text = rc == 0 ? read_file(out, &len, err, sizeof err) : NULL;
    unlink(out);
    if (rc != 0 || !text) {
        if (rc == 0)
            sb_appendf(log, "cugrade: cannot read the preprocessed submission: %s\n", err);
        return rc == -1 ? -1 : -2; /* -2: its sandbox did not start, or no output to read */
    }
    path_dir(src, folder, sizeof folder);
    snprintf(common, sizeof common, "%s/labs/common", ctx->root);
    snprintf(emu, sizeof emu, "%s/emu/include", ctx->root);
    const char *allowed[] = {folder, common, ctx->scratch, ctx->backend == BACKEND_EMU ? emu : NULL,
                             NULL};
    const char *system[] = {"/usr", prefix, NULL};
    srccheck_dirs_t dirs = {.allowed = allowed, .root = ctx->root, .system = system};
    rc = srccheck_expanded(text, len, &dirs, r);
    free(text);
    return rc < 0 ? -2 : rc;
}

/* The source check (srccheck.h) before the student's file is compiled: of
 * its files, then of the compiler's preprocessed output. 0 allowed; -1
 * refused (the reason, with file:line, goes into the log and the result) or
 * the preprocessor failed (its messages are in the log); -2 the check could
 * not run (a grader fault). */
static int check_student_source(const build_ctx_t *ctx, const char *cc, const char *src,
                                strbuf_t *log, build_result_t *out)
{
    const char *off = getenv("CUGRADE_SRCCHECK");
    if (off && strcmp(off, "off") == 0) {
        sb_append(log, "cugrade: the source check is off (CUGRADE_SRCCHECK=off: for testing the "
                  "compile jail alone, never for grading)\n");
        return 0;
    }
    char common[PATH_MAX], tool_inc[PATH_MAX], prefix[PATH_MAX];
    toolchain_prefix(ctx, cc, prefix, sizeof prefix);
    snprintf(common, sizeof common, "%s/labs/common", ctx->root);
    if (ctx->backend == BACKEND_EMU)
        snprintf(tool_inc, sizeof tool_inc, "%s/emu/include", ctx->root);
    else
        snprintf(tool_inc, sizeof tool_inc, "%.4000s/include", prefix);
    const char *headers[] = {common, tool_inc, NULL};
    srccheck_result_t r;
    int rc = srccheck_source(src, headers, &r);
    if (rc == 0)
        rc = check_preprocessed(ctx, cc, src, prefix, log, &r);
    if (rc == 0 || rc == -1 || (rc == -2 && !r.what[0]))
        return rc;
    if (rc < 0) {
        sb_appendf(log, "cugrade: cannot check the submission's source: %s\n", r.what);
        return -2;
    }
    char where[PATH_MAX + 32];
    snprintf(where, sizeof where, r.line > 0 ? "%.4000s:%d" : "%.4000s", r.file, r.line);
    snprintf(out->refused, sizeof out->refused, "%.600s: refused: the submission %.380s", where,
             r.what);
    sb_appendf(log, "%s\nA submission's compiler reads only the submission's own files (in its "
               "folder), the lab's headers (#include <wb.h>) and the system's (<stdio.h>, "
               "<cuda_runtime.h>); inline assembly may not read files. docs/security.md says "
               "why.\n", out->refused);
    return -1;
}

/* The allow-list check of the student's object (objcheck.h) before it is
 * linked with the harness: 0 allowed; -1 refused (the reason, with the
 * source's file:line, goes into the log and the result); -2 the check could
 * not run (a grader fault). */
static int check_student_object(const char *src, const char *obj, strbuf_t *log,
                                build_result_t *out)
{
    const char *off = getenv("CUGRADE_OBJCHECK");
    if (off && strcmp(off, "off") == 0) {
        sb_append(log, "cugrade: the object check is off (CUGRADE_OBJCHECK=off: for testing the "
                  "run sandbox alone, never for grading)\n");
        return 0;
    }
    objcheck_result_t r;
    int rc = objcheck_object(obj, &r);
    if (rc < 0) {
        sb_appendf(log, "cugrade: cannot check the compiled submission: %s\n", r.what);
        return -2;
    }
    if (rc == 0)
        return 0;
    char where[600];
    if (objcheck_locate(src, &r) > 0)
        snprintf(where, sizeof where, "%.580s:%d", src, r.line);
    else
        snprintf(where, sizeof where, "%.580s", src);
    snprintf(out->refused, sizeof out->refused, "%s: refused: the submission %.256s%s", where, r.what,
             r.line > 0 ? "" : " (the source does not name it: a macro or a header brings it in)");
    sb_appendf(log, "%s\nThe harness, not the submission, reads and writes files, starts processes "
               "and owns the environment: remove that code (print with printf; return results "
               "through the lab's launch function). docs/security.md lists what a submission "
               "may call.\n", out->refused);
    return -1;
}

/* Links the student's object with the harness's (the lab's driver, or for a
 * program-style lab wb.h's file I/O): 0, -1 or -2 as compile_student. */
static int link_program(const build_ctx_t *ctx, const char *cc, const char *driver_obj,
                        const char *student_obj, const char *program, strbuf_t *log, char *failed,
                        size_t failedlen)
{
    char arch[64], cxx[PATH_MAX], vcudart[PATH_MAX], *argv[10];
    int n = 0;
    snprintf(arch, sizeof arch, "-arch=%s", build_nvcc_arch());
    if (ctx->backend == BACKEND_VGPU) { /* the host compiler, and our runtime for libcudart */
        char name[PATH_MAX];
        build_host_compiler(name, sizeof name);
        if (find_program(name, cxx, sizeof cxx) != 0) {
            sb_appendf(log, "cugrade: no host compiler %s to link the program (not the student's "
                       "fault)\n", name);
            return -2;
        }
        snprintf(vcudart, sizeof vcudart, "%s/build/libcugrade_vcudart.a", ctx->root);
        argv[n++] = cxx;
    } else {
        argv[n++] = (char *)cc;
    }
    if (ctx->backend == BACKEND_NATIVE)
        argv[n++] = arch;
    argv[n++] = (char *)driver_obj;
    argv[n++] = (char *)student_obj;
    if (ctx->backend == BACKEND_VGPU) {
        argv[n++] = vcudart;
        argv[n++] = "-lpthread";
    }
    argv[n++] = "-o";
    argv[n++] = (char *)program;
    argv[n] = NULL;
    tool_limits_t lim = tool_submission_limits(TOOL_FILE_LIMIT);
    student_jail_t j;
    return tool_run_in(student_jail(ctx, student_obj, driver_obj, &j), argv, ctx->timeout_s, &lim,
                       log, failed, failedlen);
}

/* The PTX nvcc --keep left in dir for the student's file src
 * (<dir>/<its name less .cu>.ptx) into out->ptx: 0, or -2 (a grader fault:
 * the toolchain kept no PTX). */
static int vgpu_ptx_path(const char *src, const char *dir, build_result_t *out, strbuf_t *log)
{
    const char *name = path_base(src), *dot = strrchr(name, '.');
    int stem = dot && dot != name ? (int)(dot - name) : (int)strlen(name);
    snprintf(out->ptx, sizeof out->ptx, "%.3000s/%.*s.ptx", dir, stem, name);
    snprintf(out->cubin, sizeof out->cubin, "%.3000s/%.*s.%s.cubin", dir, stem, name, build_vgpu_arch());
    if (!is_file(out->cubin))
        out->cubin[0] = '\0'; /* no GPU replay without it */
    if (is_file(out->ptx))
        return 0;
    sb_appendf(log, "cugrade: nvcc --keep left no PTX at %s (not the student's fault)\n", out->ptx);
    return -2;
}

int build_out_dir(const build_ctx_t *ctx, char *dir, size_t len)
{
    if (snprintf(dir, len, "%s/build", ctx->scratch) >= (int)len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* The sandbox's second tier: a submission its uid cannot reach is built
 * from a copy (readable_copy.h), and *src names it. 0, or -1 (a grader
 * fault: the copy could not be made). */
static int copy_if_unreachable(const build_ctx_t *ctx, const char **src, char *copied,
                               size_t len, strbuf_t *log)
{
    char dir[PATH_MAX], why[512];
    if (build_out_dir(ctx, dir, sizeof dir) != 0) {
        sb_appendf(log, "cannot make the build folder %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int rc = readable_copy_in_place(*src, dir, copied, len, why, sizeof why);
    if (rc < 0)
        sb_appendf(log, "cannot copy the submission where the sandbox can read it: %s\n", why);
    if (rc == 1)
        *src = copied;
    return rc < 0 ? -1 : 0;
}

int build_submission(const build_ctx_t *ctx, const char *student_src, build_result_t *out)
{
    memset(out, 0, sizeof *out);
    double t0 = now_seconds();
    strbuf_t log = {0};
    char cc[PATH_MAX], driver_obj[PATH_MAX], student_obj[PATH_MAX], copied[PATH_MAX];
    char *cmd = out->command;
    size_t cmdlen = sizeof out->command;
    if (compiler_path(ctx, cc, sizeof cc) != 0) {
        sb_appendf(&log, "no compiler for the %s backend (%s)\n", backend_name(ctx->backend),
                   ctx->backend == BACKEND_EMU ? "bin/emucc missing: run make" : "nvcc not found");
        out->internal_error = 1;
    } else if (ensure_driver(ctx, cc, driver_obj, sizeof driver_obj, &log, cmd, cmdlen) != 0) {
        out->internal_error = 1;
    } else if (copy_if_unreachable(ctx, &student_src, copied, sizeof copied, &log) != 0) {
        out->internal_error = 1;
    } else {
        char dir[PATH_MAX];
        build_out_dir(ctx, dir, sizeof dir);
        snprintf(student_obj, sizeof student_obj, "%.4000s/student.o", dir);
        snprintf(out->program, sizeof out->program, "%.4000s/program", dir);
        /* the lab's rules first at each stage, so a broken rule is named even where the
         * stage then fails (<mma.h> does not compile on the emulator) */
        int checked = build_check_rules(ctx, RULES_AT_SOURCE, student_src, student_src, &log, out);
        if (checked == 0)
            checked = check_student_source(ctx, cc, student_src, &log, out);
        if (checked == 0)
            checked = compile_student(ctx, cc, student_src, student_obj, MAKE_OBJECT, &log, cmd,
                                      cmdlen);
        if (checked == 0 && ctx->backend == BACKEND_VGPU)
            checked = vgpu_ptx_path(student_src, dir, out, &log);
        if (checked == 0)
            checked = build_check_rules(ctx, RULES_AT_OBJECT, student_src, student_obj, &log, out);
        if (checked == 0)
            checked = check_student_object(student_src, student_obj, &log, out);
        if (checked == 0)
            checked = link_program(ctx, cc, driver_obj, student_obj, out->program, &log, cmd,
                                   cmdlen);
        if (checked == 0)
            checked = build_check_rules(ctx, RULES_AT_PROGRAM, student_src, out->program, &log,
                                        out);
        if (checked == -2)
            out->internal_error = 1;
        out->ok = checked == 0;
    }
    out->seconds = now_seconds() - t0;
    out->log = sb_detach(&log);
    return out->ok ? 0 : -1;
}

void build_result_free(build_result_t *r)
{
    free(r->log);
    r->log = NULL;
}

int build_tool(const char *root, backend_t backend, const char *src_rel, char *out, size_t outlen,
               char **log)
{
    build_ctx_t ctx = {.root = root, .backend = backend, .timeout_s = COMPILE_LIMIT_S};
    strbuf_t sb = {0};
    char cc[PATH_MAX], src[PATH_MAX], dir[PATH_MAX], err[512], arch[64];
    snprintf(src, sizeof src, "%s/%s", root, src_rel);
    const char *name = path_base(src_rel);
    if (backend == BACKEND_EMU)
        snprintf(dir, sizeof dir, "%s/build/emu", root);
    else
        snprintf(dir, sizeof dir, "%s/build/gpu-%s", root, build_nvcc_arch());
    snprintf(out, outlen, "%s/%.*s", dir, (int)(strcspn(name, ".")), name);
    int rc = 0;
    if (compiler_path(&ctx, cc, sizeof cc) != 0) {
        sb_appendf(&sb, "no compiler for the %s backend\n", backend_name(backend));
        rc = -1;
    } else if (build_mtime(out) < build_mtime(src) || build_mtime(out) < build_mtime(cc)) {
        char tmp[PATH_MAX + 32];
        int named = temp_path_for(tmp, sizeof tmp, out, "");
        snprintf(arch, sizeof arch, "-arch=%s", build_nvcc_arch());
        char *emu_argv[] = {cc, "-O2", src, "-o", tmp, NULL};
        char *gpu_argv[] = {cc, "-O2", arch, src, "-o", tmp, NULL};
        if (named != 0) {
            sb_appendf(&sb, "%s: path too long\n", out);
            rc = -1;
        } else if (mkdir_p(dir, err, sizeof err) != 0) {
            sb_appendf(&sb, "%s\n", err);
            rc = -1;
        } else {
            rc = tool_run(backend == BACKEND_EMU ? emu_argv : gpu_argv, COMPILE_LIMIT_S,
                          &tool_harness_limits, &sb, NULL,
                          0);
            if (rc == 0 && rename(tmp, out) != 0)
                rc = -1;
            unlink(tmp);
        }
    }
    *log = sb_detach(&sb);
    return rc;
}

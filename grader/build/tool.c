/* tool.c - a compiler run with the build's limits (tool.h), and what the
 * student is told when one stopped it. */
#include "build/tool.h"
#include "run/runner.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const tool_limits_t tool_harness_limits = {TOOL_MEMORY_LIMIT, TOOL_FILE_LIMIT, TOOL_CPU_LIMIT_S};

tool_limits_t tool_submission_limits(size_t file)
{
    tool_limits_t l = tool_harness_limits;
    const char *mb = getenv("CUGRADE_COMPILE_MEMORY_MB"), *cpu = getenv("CUGRADE_COMPILE_CPU_S");
    if (mb && atol(mb) > 0)
        l.memory = (size_t)atol(mb) << 20;
    if (cpu && atof(cpu) > 0)
        l.cpu_s = atof(cpu);
    l.file = file;
    return l;
}

/* "cmd arg arg ..." into out, cut to fit. */
static void argv_line(char *const *argv, char *out, size_t outlen)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; argv[i] && k + 1 < outlen; i++)
        k += (size_t)snprintf(out + k, outlen - k, "%s%s", i ? " " : "", argv[i]);
}

static int mentions_memory(const char *out)
{
    static const char *const words[] = {"out of memory", "memory exhausted",
                                        "cannot allocate memory", "bad_alloc",
                                        "memory allocation failure", NULL};
    for (int i = 0; words[i]; i++)
        if (strcasestr(out, words[i]))
            return 1;
    return 0;
}

/* Why a compiler failed, when a limit stopped it or it did not exit: one
 * line for the log. */
static void explain_failure(const run_result_t *res, const run_spec_t *spec, strbuf_t *log)
{
    const char *out = res->output ? res->output : "", *tool = path_base(spec->argv[0]);
    char why[256];
    if (res->output_stopped)
        sb_appendf(log, "cugrade: %s printed more than %zu KiB of messages and was stopped: "
                   "fix the first errors below\n", tool, spec->stop_after_bytes >> 10);
    else if (strstr(out, "CPU time limit exceeded") ||
             (res->signaled && res->term_signal == SIGXCPU))
        sb_appendf(log, "cugrade: the compiler ran past its CPU-time limit of %g s and was "
                   "stopped: the code makes it work too long (a constexpr loop or a template "
                   "that recurses without end?)\n", spec->cpu_limit_s);
    else if (mentions_memory(out))
        sb_appendf(log, "cugrade: the compiler ran out of memory (%zu MiB for each of its "
                   "processes) and was stopped: the code makes it build too much (a macro or a "
                   "template that expands without end?)\n", spec->memory_limit_bytes >> 20);
    else if (strstr(out, "File size limit exceeded"))
        sb_appendf(log, "cugrade: the compiler was stopped: it wrote a file larger than "
                   "%zu MiB\n", spec->file_limit_bytes >> 20);
    else if (!res->exited) {
        run_describe(res, spec, why, sizeof why);
        sb_appendf(log, "cugrade: %s %s\n", spec->argv[0], why);
    }
}

int tool_run(char *const *argv, double timeout_s, const tool_limits_t *lim, strbuf_t *log,
             char *failed, size_t failedlen)
{
    return tool_run_in(NULL, argv, timeout_s, lim, log, failed, failedlen);
}

int tool_run_in(const tool_jail_t *jail, char *const *argv, double timeout_s,
                const tool_limits_t *lim, strbuf_t *log, char *failed, size_t failedlen)
{
    run_spec_t spec = {.argv = argv, .timeout_s = timeout_s, .output_cap = TOOL_OUTPUT_CAP,
                       .memory_limit_bytes = lim->memory, .cpu_limit_s = lim->cpu_s,
                       .file_limit_bytes = lim->file, .stop_after_bytes = TOOL_OUTPUT_STOP,
                       .nice = TOOL_NICE};
    char tmpdir[PATH_MAX + 8];
    char *env[] = {tmpdir, NULL};
    if (jail) {
        spec.sandboxed = 1;
        spec.tool = 1; /* the compilers run their own processes */
        spec.cwd = jail->cwd;
        spec.write_dir = jail->write_dir;
        spec.ro_paths = jail->ro_paths;
        spec.copy_from = jail->copy_from;
        spec.copy_at = jail->copy_at;
        /* the compilers' temporary files in the writable folder: the jail's
         * /tmp is read-only when the submission's own folder is /tmp */
        if (jail->write_dir && snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", jail->write_dir) <
                                   (int)sizeof tmpdir)
            spec.extra_env = env;
    }
    run_result_t res;
    run_one(&spec, &res);
    int ok = res.exited && res.exit_code == 0;
    int jail_failed = !ok && jail && res.sandbox_failed; /* bwrap's, before the compiler */
    if (!ok && failed)
        argv_line(argv, failed, failedlen);
    if (jail_failed)
        sb_appendf(log, "cugrade: the sandbox did not start (bwrap failed before the compiler "
                   "ran): a grader fault, not the submission's\n");
    else if (!ok) /* first: the report shows a long log's first lines */
        explain_failure(&res, &spec, log);
    sb_append(log, res.output ? res.output : "");
    if (res.output_truncated)
        sb_appendf(log, "\n[compiler output cut after %zu of %s%zu bytes]\n", res.output_len,
                   res.output_stopped ? "more than " : "", res.output_total);
    run_result_free(&res);
    return ok ? 0 : jail_failed ? -2 : -1;
}

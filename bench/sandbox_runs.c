/* sandbox_runs.c - what one sandboxed run of a program costs the grader:
 * N runs of /bin/true through the runner (run/runner.h), one after another,
 * each as a dataset run is started (sandboxed, a report channel), and the
 * mean wall time of one, beside the same runs unsandboxed. Prints the
 * sandbox's words and the figures; exits 1 if a run did not exit 0 (its
 * output printed), 2 if the sandbox cannot run here.
 *
 *   build/bench/sandbox_runs [N]     (default 100) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/runner.h"
#include "run/sandbox.h"
#include "util/util.h"

/* Mean seconds of one of n runs, or -1 after printing a failed one. */
static double mean_run(int n, int sandboxed, const char *dir, const char *report)
{
    char *argv[] = {"/bin/true", NULL};
    double t0 = now_seconds();
    for (int i = 0; i < n; i++) {
        run_spec_t spec = {.argv = argv, .cwd = dir, .timeout_s = 30, .sandboxed = sandboxed,
                           .report_path = sandboxed ? report : NULL};
        run_result_t r;
        run_one(&spec, &r);
        int ok = r.exited && r.exit_code == 0;
        if (!ok)
            fprintf(stderr, "sandbox_runs: run %d of /bin/true failed: %s\n", i, r.output);
        run_result_free(&r);
        if (!ok)
            return -1;
    }
    return (now_seconds() - t0) / n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    if (n < 1) {
        fprintf(stderr, "usage: sandbox_runs [N >= 1]\n");
        return 2;
    }
    if (!sandbox_available()) {
        fprintf(stderr, "sandbox_runs: %s\n", sandbox_description());
        return 2;
    }
    char dir[] = "/tmp/cugrade-bench-runs-XXXXXX", report[64];
    if (!mkdtemp(dir))
        return 2;
    snprintf(report, sizeof report, "%s.report", dir);
    double bare = mean_run(n, 0, dir, report);
    double boxed = bare < 0 ? -1 : mean_run(n, 1, dir, report);
    rm_rf(dir);
    unlink(report);
    if (boxed < 0)
        return 1;
    printf("%s, uid %d\n", sandbox_description(), (int)geteuid());
    printf("/bin/true, %d runs each: %.2f ms unsandboxed, %.2f ms sandboxed (%.2f ms the "
           "sandbox's)\n", n, 1000 * bare, 1000 * boxed, 1000 * (boxed - bare));
    return 0;
}

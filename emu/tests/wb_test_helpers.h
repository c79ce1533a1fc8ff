/* wb_test_helpers.h - shared by the tests of labs/common/wb.h
 * (test_wb.cpp: arguments, files, solutions; test_wb_run.cpp: timers, the
 * poisoned cudaMalloc, wbLog): read a file, make a scratch file, run code in
 * a forked child with its output captured, build argv for wbArg_read. */
#ifndef CUGRADE_WB_TEST_HELPERS_H
#define CUGRADE_WB_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../labs/common/wb.h"

#define FIX "tests/fixtures/libwb/"

static inline std::string slurp(const std::string &path)
{
    std::string text;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    fclose(f);
    return text;
}

static inline std::string scratch_path(const char *tag)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/cugrade-wb-%s-XXXXXX", tag);
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    return path;
}

static inline bool contains(const std::string &s, const std::string &what) { return s.find(what) != std::string::npos; }

struct child_result {
    int status; /* exit status, or 128 + signal */
    std::string out, err;
};

/* Runs f in a child whose stdout and stderr go to files. */
template <class F> static child_result run_child(F f)
{
    std::string out_path = scratch_path("out"), err_path = scratch_path("err");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *o = freopen(out_path.c_str(), "w", stdout);
        FILE *e = freopen(err_path.c_str(), "w", stderr);
        if (!o || !e)
            _exit(99);
        f();
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    child_result r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    unlink(out_path.c_str());
    unlink(err_path.c_str());
    return r;
}

/* wbArg_read over a list of words (argv[0] first). */
static inline wbArg_t read_args(std::vector<std::string> words)
{
    static std::vector<std::string> keep; /* argv strings outlive the call */
    keep = words;
    std::vector<char *> argv;
    for (std::string &w : keep)
        argv.push_back(&w[0]);
    argv.push_back(nullptr);
    return wbArg_read(int(keep.size()), argv.data());
}

static inline uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

#endif

/* emu_test_helpers.h - small helpers shared by the emulator's Criterion
 * tests: a scratch diagnostics file and the schedule switch. Kernels and
 * launches stay in the test files, launches written in the rewritten form
 * ::cugrade::kernel_launch(k, "k", __FILE__, __LINE__).config(grid, block)(args). */
#ifndef CUGRADE_EMU_TEST_HELPERS_H
#define CUGRADE_EMU_TEST_HELPERS_H

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

/* Points CUGRADE_EMU_DIAG at a fresh empty file; returns its path. The
 * file goes away when read_file reads it. */
static inline std::string use_scratch_diag_file()
{
    char path[] = "/tmp/cugrade-emu-diag-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    setenv("CUGRADE_EMU_DIAG", path, 1);
    return path;
}

/* The whole file; a scratch diagnostics file is removed once read. */
static inline std::string read_file(const std::string &path)
{
    std::string text;
    FILE *f = fopen(path.c_str(), "r");
    if (!f)
        return text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    fclose(f);
    if (path.compare(0, 22, "/tmp/cugrade-emu-diag-") == 0)
        unlink(path.c_str());
    return text;
}

static inline size_t count_lines(const std::string &text, const std::string &prefix)
{
    size_t count = 0, pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        if (text.compare(pos, prefix.size(), prefix) == 0)
            count++;
        pos = end + 1;
    }
    return count;
}

static inline void use_schedule(const char *order) { setenv("CUGRADE_EMU_SCHEDULE", order, 1); }

#endif

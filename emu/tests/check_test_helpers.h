/* check_test_helpers.h - helpers of the checking-mode tests
 * (test_emu_checks*.cpp): a launch run with its diagnostics captured, and readers for the captured
 * lines ("error\trace\t...", "stat\tkey\tvalue"). */
#ifndef CUGRADE_CHECK_TEST_HELPERS_H
#define CUGRADE_CHECK_TEST_HELPERS_H

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "check_kernels.h"
#include "emu_test_helpers.h"

/* Runs f with a fresh diagnostics file; returns what was written to it. */
template <class F> std::string captured(F f)
{
    std::string path = use_scratch_diag_file();
    f();
    unsetenv("CUGRADE_EMU_DIAG");
    return read_file(path);
}

/* The lines of text that start with prefix. */
static inline std::vector<std::string> lines_starting(const std::string &text, const std::string &prefix)
{
    std::vector<std::string> found;
    for (size_t pos = 0, end; pos < text.size(); pos = end + 1) {
        end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        if (text.compare(pos, prefix.size(), prefix) == 0)
            found.push_back(text.substr(pos, end - pos));
    }
    return found;
}

/* Error and warning lines: findings of any kind. */
static inline size_t findings(const std::string &diag)
{
    return lines_starting(diag, "error\t").size() + lines_starting(diag, "warning\t").size();
}

/* The value of "stat\t<key>\t<value>" (the last one), or -1. */
static inline long long stat_value(const std::string &diag, const std::string &key)
{
    std::vector<std::string> lines = lines_starting(diag, "stat\t" + key + "\t");
    return lines.empty() ? -1 : std::atoll(lines.back().c_str() + 6 + key.size());
}

static inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/* "check_tiled_kernel.h:21" */
static inline std::string at(const char *file, int line) { return std::string(file) + ":" + std::to_string(line); }

#endif

/* symbolize.cpp - file:line of a return address in the instrumented
 * program, for the checkers' messages ("matmul.cu:21").
 *
 * `addr2line -e /proc/<pid>/exe ADDR...` answers for a whole batch at once;
 * the answers are cached for the life of the process. llvm-addr2line is
 * asked first where it is installed: GNU addr2line 2.40 names the wrong
 * file for g++ 12's DWARF 5 line tables when the #line file is entry 1 of
 * the file table (it answers with the rewritten .cu.cpp instead of the
 * student's .cu; -gdwarf-4 avoids that too). An address is given
 * to addr2line as it is in the file: pc - 1 (inside the call instruction
 * the return address follows) minus the program's load bias (PIE). The file
 * name is shortened to its base name, as the student wrote it in #line.
 * Where addr2line is missing or knows nothing, the answer is the raw file
 * address "0x1234". */
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

#include "check_internal.h"

extern char **environ;

namespace cugrade::emu {
namespace {

std::unordered_map<uintptr_t, std::string> g_cache;

int first_object_bias(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *static_cast<uintptr_t *>(data) = info->dlpi_addr;
    return 1; /* the first object is the program itself */
}

uintptr_t load_bias()
{
    static uintptr_t bias = ~uintptr_t(0);
    if (bias == ~uintptr_t(0)) {
        uintptr_t found = 0;
        dl_iterate_phdr(first_object_bias, &found);
        bias = found;
    }
    return bias;
}

uintptr_t file_address(uintptr_t pc) { return pc - 1 - load_bias(); }

/* "/a/b/matmul.cu:21 (discriminator 2)" -> "matmul.cu:21"; "" if unknown. */
std::string tidy_answer(const std::string &line)
{
    if (line.empty() || line[0] == '?')
        return "";
    std::string s = line.substr(0, line.find(" ("));
    size_t colon = s.rfind(':');
    if (colon == std::string::npos || colon + 1 >= s.size() || s[colon + 1] == '?' || s.compare(colon, 3, ":0") == 0)
        return "";
    size_t slash = s.rfind('/', colon);
    return slash == std::string::npos ? s : s.substr(slash + 1);
}

/* Runs tool (an addr2line) on the addresses; its output lines, one per
 * address, or nothing if it could not run. */
std::vector<std::string> run_addr2line(const char *tool, const std::vector<uintptr_t> &pcs)
{
    std::vector<std::string> words = {tool, "-e", "/proc/" + std::to_string(getpid()) + "/exe"};
    for (uintptr_t pc : pcs) {
        char hex[32];
        snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(file_address(pc)));
        words.push_back(hex);
    }
    std::vector<char *> argv;
    for (std::string &w : words)
        argv.push_back(&w[0]);
    argv.push_back(nullptr);

    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, tool, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while (rc == 0 && (n = read(out[0], buf, sizeof buf)) != 0)
        if (n > 0)
            text.append(buf, size_t(n));
    close(out[0]);
    int status;
    while (rc == 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::vector<std::string> lines;
    for (size_t pos = 0, end; pos < text.size(); pos = end + 1) {
        end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        lines.push_back(text.substr(pos, end - pos));
    }
    return lines;
}

} // namespace

void format_raw_pc(uintptr_t pc, char *buf, size_t len)
{
    snprintf(buf, len, "0x%lx", static_cast<unsigned long>(file_address(pc)));
}

void symbolize_batch(const std::vector<uintptr_t> &pcs)
{
    std::vector<uintptr_t> missing;
    for (uintptr_t pc : pcs)
        if (pc && !g_cache.count(pc)) {
            missing.push_back(pc);
            g_cache[pc] = ""; /* also keeps duplicates out of the batch */
        }
    if (missing.empty())
        return;
    std::vector<std::string> lines = run_addr2line("llvm-addr2line", missing);
    if (lines.size() < missing.size())
        lines = run_addr2line("addr2line", missing);
    for (size_t i = 0; i < missing.size(); i++) {
        std::string answer = i < lines.size() ? tidy_answer(lines[i]) : "";
        if (answer.empty()) {
            char raw[32];
            format_raw_pc(missing[i], raw, sizeof raw);
            answer = raw;
        }
        g_cache[missing[i]] = answer;
    }
}

const char *symbolize(uintptr_t pc)
{
    symbolize_batch({pc});
    return g_cache[pc].c_str();
}

const char *symbolize_cached(uintptr_t pc)
{
    auto it = g_cache.find(pc);
    return it == g_cache.end() || it->second.empty() ? nullptr : it->second.c_str();
}

} // namespace cugrade::emu

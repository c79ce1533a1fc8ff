/* kernel_params.cpp - the parameter names of each kernel, registered by the
 * lines the rewriter appends to every rewritten .cu file:
 *   static const int __cugrade_params_0 =
 *       ::cugrade_register_kernel_params("matrixMultiplyShared", "A,B,C,numARows,...");
 * (run before main, in any order with other static initialisers, hence the
 * function-local registry). A launch finds its kernel's names by the
 * unqualified identifier of the launch expression: "ns::k<float>" -> "k";
 * among kernels of that name (overloads, namespaces) the first with as many
 * parameters as the launch has arguments. */
#include <cctype>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "check_internal.h"

namespace cugrade::emu {
namespace {

using name_list = std::vector<std::string>;

std::mutex g_params_mutex;

std::multimap<std::string, name_list> &registry()
{
    static std::multimap<std::string, name_list> kernels;
    return kernels;
}

name_list split_names(const char *params)
{
    name_list names;
    if (!params || !*params)
        return names;
    std::string current;
    for (const char *p = params;; p++) {
        if (*p == ',' || *p == '\0') {
            names.push_back(current);
            current.clear();
            if (*p == '\0')
                break;
        } else if (!isspace(static_cast<unsigned char>(*p))) {
            current += *p;
        }
    }
    return names;
}

bool is_ident_char(char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/* The last identifier of the expression once template arguments are gone. */
std::string unqualified(const char *expression)
{
    std::string plain;
    int depth = 0;
    for (const char *p = expression; p && *p; p++) {
        depth += (*p == '<') - (*p == '>' && depth > 0);
        if (depth == 0 && *p != '>')
            plain += *p;
    }
    size_t end = plain.size();
    while (end > 0 && !is_ident_char(plain[end - 1]))
        end--;
    size_t begin = end;
    while (begin > 0 && is_ident_char(plain[begin - 1]))
        begin--;
    return plain.substr(begin, end - begin);
}

} // namespace

const std::vector<std::string> *kernel_param_names(const char *launch_name, int nargs)
{
    std::lock_guard<std::mutex> lock(g_params_mutex);
    auto range = registry().equal_range(unqualified(launch_name));
    for (auto it = range.first; it != range.second; ++it)
        if (it->second.size() == size_t(nargs))
            return &it->second;
    return nullptr;
}

} // namespace cugrade::emu

extern "C" int cugrade_register_kernel_params(const char *kernel, const char *params)
{
    using namespace cugrade::emu;
    if (!kernel)
        return 0;
    std::lock_guard<std::mutex> lock(g_params_mutex);
    registry().emplace(kernel, split_names(params));
    return 0;
}

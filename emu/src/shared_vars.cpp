/* shared_vars.cpp - the names and extents of the __shared__ variables, for
 * the checkers' messages ("race on shared tileA") and for telling one
 * variable from the next (shared-oob).
 *
 * Every __shared__ variable is a function-static in the ELF section
 * cugrade_shared (cuda_runtime.h), so the program's own symbol table lists
 * them: a small ELF64 reader maps /proc/self/exe, finds the section by name
 * and the .symtab/.strtab pair, and keeps each object symbol of that
 * section with its size, its name demangled (abi::__cxa_demangle) and cut
 * to the last component: _ZZ20matrixMultiplySharedPKfS0_PfiiiiiiE5tileA ->
 * "matrixMultiplyShared(...)::tileA" -> "tileA". Run-time addresses follow
 * from __start_cugrade_shared and the section's address in the file.
 * A stripped program has no .symtab: then no names, only offsets. */
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_internal.h"

extern "C" unsigned char __start_cugrade_shared[] __attribute__((weak));

namespace cugrade::emu {
namespace {

/* A read-only mapping of the program's file. */
struct mapped_file {
    const unsigned char *data = nullptr;
    size_t size = 0;

    explicit mapped_file(const char *path)
    {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            return;
        if (fstat(fd, &st) == 0 && st.st_size > 0) {
            void *p = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
            if (p != MAP_FAILED) {
                data = static_cast<const unsigned char *>(p);
                size = size_t(st.st_size);
            }
        }
        close(fd);
    }
    ~mapped_file()
    {
        if (data)
            munmap(const_cast<unsigned char *>(data), size);
    }
    mapped_file(const mapped_file &) = delete;
    mapped_file &operator=(const mapped_file &) = delete;

    bool holds(uint64_t offset, uint64_t len) const { return offset <= size && len <= size - offset; }
};

/* The section headers of a valid little-endian ELF64 file, or null. */
const Elf64_Shdr *section_headers(const mapped_file &f, const Elf64_Ehdr **ehdr)
{
    if (!f.holds(0, sizeof(Elf64_Ehdr)))
        return nullptr;
    const Elf64_Ehdr *e = reinterpret_cast<const Elf64_Ehdr *>(f.data);
    if (memcmp(e->e_ident, ELFMAG, SELFMAG) != 0 || e->e_ident[EI_CLASS] != ELFCLASS64 ||
        e->e_shentsize != sizeof(Elf64_Shdr) || !f.holds(e->e_shoff, uint64_t(e->e_shnum) * sizeof(Elf64_Shdr)) ||
        e->e_shstrndx >= e->e_shnum)
        return nullptr;
    *ehdr = e;
    return reinterpret_cast<const Elf64_Shdr *>(f.data + e->e_shoff);
}

const char *string_at(const mapped_file &f, const Elf64_Shdr &strtab, uint32_t offset)
{
    if (offset >= strtab.sh_size || !f.holds(strtab.sh_offset, strtab.sh_size))
        return nullptr;
    const char *s = reinterpret_cast<const char *>(f.data + strtab.sh_offset + offset);
    return memchr(s, '\0', strtab.sh_size - offset) ? s : nullptr;
}

/* "f(int)::tileA" -> "tileA"; names that are not mangled stay as they are. */
std::string short_name(const char *symbol)
{
    int status = 0;
    char *demangled = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
    std::string name = status == 0 && demangled ? demangled : symbol;
    free(demangled);
    size_t sep = name.rfind("::");
    return sep == std::string::npos ? name : name.substr(sep + 2);
}

void add_symbols(const mapped_file &f, const Elf64_Shdr &symtab, const Elf64_Shdr &strtab, size_t section_index,
                 uintptr_t bias, std::vector<shared_var> *vars)
{
    if (symtab.sh_entsize != sizeof(Elf64_Sym) || !f.holds(symtab.sh_offset, symtab.sh_size))
        return;
    const Elf64_Sym *syms = reinterpret_cast<const Elf64_Sym *>(f.data + symtab.sh_offset);
    for (size_t i = 0; i < symtab.sh_size / sizeof(Elf64_Sym); i++) {
        const Elf64_Sym &s = syms[i];
        const char *name = string_at(f, strtab, s.st_name);
        if (s.st_shndx != section_index || ELF64_ST_TYPE(s.st_info) != STT_OBJECT || s.st_size == 0 || !name)
            continue;
        uintptr_t lo = uintptr_t(s.st_value) + bias;
        bool dynamic = strcmp(name, "__cugrade_dynamic_smem") == 0;
        vars->push_back(shared_var{lo, lo + s.st_size, dynamic ? "the dynamic shared memory" : short_name(name), dynamic});
    }
}

std::vector<shared_var> read_shared_vars()
{
    std::vector<shared_var> vars;
    mapped_file f("/proc/self/exe");
    const Elf64_Ehdr *e = nullptr;
    const Elf64_Shdr *sh = section_headers(f, &e);
    if (!sh || !__start_cugrade_shared)
        return vars;
    size_t section = 0;
    for (size_t i = 1; i < e->e_shnum && !section; i++) {
        const char *name = string_at(f, sh[e->e_shstrndx], sh[i].sh_name);
        if (name && strcmp(name, "cugrade_shared") == 0)
            section = i;
    }
    if (!section)
        return vars;
    uintptr_t bias = reinterpret_cast<uintptr_t>(__start_cugrade_shared) - uintptr_t(sh[section].sh_addr);
    for (size_t i = 1; i < e->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < e->e_shnum)
            add_symbols(f, sh[i], sh[sh[i].sh_link], section, bias, &vars);
    std::sort(vars.begin(), vars.end(), [](const shared_var &a, const shared_var &b) { return a.lo < b.lo; });
    vars.erase(std::unique(vars.begin(), vars.end(), [](const shared_var &a, const shared_var &b) { return a.lo == b.lo; }),
               vars.end());
    return vars;
}

} // namespace

const std::vector<shared_var> &shared_vars()
{
    static const std::vector<shared_var> vars = read_shared_vars();
    return vars;
}

const char *shared_variable_name(uintptr_t addr, uintptr_t *var_base, size_t *var_size)
{
    const std::vector<shared_var> &vars = shared_vars();
    auto it = std::upper_bound(vars.begin(), vars.end(), addr, [](uintptr_t a, const shared_var &v) { return a < v.lo; });
    if (it == vars.begin() || addr >= (--it)->hi)
        return nullptr;
    if (var_base)
        *var_base = it->lo;
    if (var_size)
        *var_size = it->hi - it->lo;
    return it->name.c_str();
}

} // namespace cugrade::emu

/* shared_oob.cpp - out-of-bounds shared accesses.
 *
 * An index past the end of one __shared__ array lands in the next one, and
 * the address alone cannot tell. So each instruction (pc) keeps, per launch,
 * which variables it touched, how often and which bytes of each. When the
 * launch ends, an instruction's main variable is the one it touched most;
 * another variable it touched is an overrun when it is the next (previous)
 * variable in memory, touched less often and only in its half nearest the
 * main one: tileA[ty + 1][k] with ty = 15 reads the first row of tileB. An
 * instruction that walks all of two variables (a helper called with tileA
 * and then tileB, ping-pong buffers) is not reported. Any touch of bytes no
 * variable owns, or of dynamic shared memory past the launch's size, is. */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "shared_check.h"

namespace cugrade::emu {

pc_var_use g_pc_vars[1u << kPcVarBits];
pc_var_first g_pc_var_firsts[1u << kPcVarBits];

namespace {

constexpr size_t kMaxTracked = (1u << kPcVarBits) / 2;
std::vector<unsigned> g_used; /* slots in use */

bool is_real_var(uint16_t var) { return var != kGapVar && var != kBeyondVar; }

bool adjacent(uint16_t a, uint16_t b) { return is_real_var(a) && is_real_var(b) && (a + 1 == b || b + 1 == a); }

/* Whether `other`, next to `main` in memory, was touched only in its half
 * nearest `main`. */
const pc_var_first &first_of(const pc_var_use &u) { return g_pc_var_firsts[&u - g_pc_vars]; }

bool touched_near(const pc_var_use &main, const pc_var_use &other)
{
    size_t size = shared_var_size(other.var);
    size_t first_size = first_of(other).size;
    if (other.count >= main.count || size == 0)
        return false;
    if (other.var > main.var) /* past the end of main */
        return other.max_end <= std::max<size_t>(size / 2, first_size);
    return other.min_off >= std::min<size_t>(size / 2, size - std::min<size_t>(size, first_size));
}

enum class side { unrelated, after, before };

/* Where `bad` lies relative to the variable `main`: just past its end, just
 * before its start (nothing else in between), or elsewhere. */
side side_of(const pc_var_use &main, const pc_var_use &bad)
{
    if (is_real_var(bad.var))
        return bad.var > main.var ? side::after : side::before;
    if (bad.var == kBeyondVar)
        return main.var == dynamic_var_id() || main.var + 1 == dynamic_var_id() ? side::after : side::unrelated;
    const std::vector<shared_var> &vars = shared_vars();
    uintptr_t addr = shared_var_lo(kGapVar) + first_of(bad).off;
    size_t preceding = size_t(std::upper_bound(vars.begin(), vars.end(), addr,
                                               [](uintptr_t a, const shared_var &v) { return a < v.lo; }) -
                              vars.begin()); /* the id of the variable before addr, 0 if none */
    if (preceding == main.var)
        return side::after;
    return preceding + 1 == main.var ? side::before : side::unrelated;
}

void describe_overrun(char *buf, size_t len, const pc_var_use *main, const pc_var_use &bad)
{
    side where = main ? side_of(*main, bad) : side::unrelated;
    const char *into = shared_var_label(bad.var);
    if (bad.var == kBeyondVar && (!main || main->var == dynamic_var_id()))
        snprintf(buf, len,
                 "uses byte offset %zu of the dynamic shared memory, but the launch asked for only %zu bytes (the "
                 "third <<<>>> argument); ask for enough bytes or fix the index",
                 size_t(first_of(bad).off), dynamic_shared_limit());
    else if (where == side::after)
        snprintf(buf, len, "indexes past the end of %s (%zu bytes) into %s; check the index against the array's size",
                 shared_var_label(main->var), shared_var_size(main->var), into);
    else if (where == side::before)
        snprintf(buf, len, "indexes before the start of %s into %s; check the index against the array's bounds",
                 shared_var_label(main->var), into);
    else
        snprintf(buf, len, "uses %s; check the index against the array's size", into);
}

void report_overrun(const pc_var_use *main, const pc_var_use &bad)
{
    if (finding_repeat(diag_kind::shared_oob, bad.pc, 0, bad.count))
        return;
    const launch_site &s = *g_exec.site;
    const pc_var_first &first = first_of(bad);
    uint3 t = thread_of(first.thread), b = first.block;
    char how[512];
    describe_overrun(how, sizeof how, main, bad);
    finding_add(diag_kind::shared_oob, bad.pc, 0,
                "Out-of-bounds shared memory %s in kernel %s launched at %s:%d: thread (%u,%u,%u) of block "
                "(%u,%u,%u) at " CUGRADE_LOC0 " %s.",
                first.write ? "write" : "read", s.name, s.file, s.line, t.x, t.y, t.z, b.x, b.y, b.z, how);
    finding_repeat(diag_kind::shared_oob, bad.pc, 0, bad.count - 1);
}

/* The uses of one instruction: [first, last) of the sorted list. */
void judge_instruction(const std::vector<const pc_var_use *> &uses, size_t first, size_t last)
{
    const pc_var_use *main = nullptr;
    for (size_t i = first; i < last; i++)
        if (is_real_var(uses[i]->var) && (!main || uses[i]->count > main->count))
            main = uses[i];
    for (size_t i = first; i < last; i++) {
        const pc_var_use &u = *uses[i];
        if (&u == main)
            continue;
        if (!is_real_var(u.var) || (main && adjacent(main->var, u.var) && touched_near(*main, u)))
            report_overrun(main, u);
    }
}

} // namespace

void track_new_pc_var(uintptr_t pc, uint16_t var, uint32_t off, unsigned size, bool is_write)
{
    unsigned mask = (1u << kPcVarBits) - 1;
    for (unsigned i = pc_var_slot(pc);; i = (i + 1) & mask) {
        pc_var_use &u = g_pc_vars[i];
        if (u.pc == pc && u.var == var) {
            u.count++;
            u.min_off = std::min(u.min_off, off);
            u.max_end = std::max(u.max_end, off + size);
            return;
        }
        if (u.pc != 0)
            continue;
        if (g_used.size() >= kMaxTracked)
            return;
        u = pc_var_use{pc, 1, off, off + size, var};
        g_pc_var_firsts[i] = pc_var_first{g_exec.block_idx, off, uint16_t(g_exec.thread_linear),
                                          uint8_t(size < 255 ? size : 255), is_write};
        g_used.push_back(i);
        return;
    }
}

void pc_vars_launch_begin()
{
    for (unsigned i : g_used)
        g_pc_vars[i].pc = 0;
    g_used.clear();
}

void pc_vars_launch_end()
{
    std::vector<const pc_var_use *> uses;
    for (unsigned i : g_used)
        uses.push_back(&g_pc_vars[i]);
    std::sort(uses.begin(), uses.end(), [](const pc_var_use *a, const pc_var_use *b) {
        return a->pc != b->pc ? a->pc < b->pc : a->var < b->var;
    });
    for (size_t first = 0, last; first < uses.size(); first = last) {
        for (last = first + 1; last < uses.size() && uses[last]->pc == uses[first]->pc; last++) {
        }
        if (last - first > 1 || !is_real_var(uses[first]->var))
            judge_instruction(uses, first, last);
    }
    pc_vars_launch_begin();
}

} // namespace cugrade::emu

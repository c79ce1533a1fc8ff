/* shared_check.h - what the two halves of the shared-memory checker share:
 * shared_check.cpp (shadow words: races, uninitialised reads) and
 * shared_oob.cpp (which variable each instruction touches: shared-oob).
 *
 * Variables are numbered in address order from 1 (shared_vars()[id - 1]);
 * id kGapVar marks bytes of the section no variable owns, kBeyondVar the
 * dynamic shared memory past the launch's size. */
#ifndef CUGRADE_EMU_SHARED_CHECK_H
#define CUGRADE_EMU_SHARED_CHECK_H

#include "check_internal.h"

namespace cugrade::emu {

constexpr uint16_t kGapVar = 0;
constexpr uint16_t kBeyondVar = 0xFFFF;

/* Where variable id starts (for kBeyondVar: the dynamic buffer), its size,
 * and how a message names it ("tileA", "the dynamic shared memory"). */
uintptr_t shared_var_lo(uint16_t id);
size_t shared_var_size(uint16_t id);
const char *shared_var_label(uint16_t id);
uint16_t dynamic_var_id(); /* 0 when the program has no dynamic buffer */
size_t dynamic_shared_limit(); /* the launch's dynamic shared bytes */

/* ---- per instruction: the variables it touched (shared_oob.cpp) ----------------- */
struct pc_var_use {
    uintptr_t pc; /* 0: free slot */
    unsigned long long count;
    uint32_t min_off, max_end; /* touched bytes, relative to the variable */
    uint16_t var;
};
/* The first of those accesses (kept apart: the table above is the hot one). */
struct pc_var_first {
    uint3 block;
    uint32_t off;
    uint16_t thread;
    uint8_t size;
    bool write;
};
constexpr unsigned kPcVarBits = 12;
extern pc_var_use g_pc_vars[1u << kPcVarBits];
extern pc_var_first g_pc_var_firsts[1u << kPcVarBits];

/* The home slot depends on pc alone (so it is computed while the variable
 * is still being looked up); an instruction's other variables take the
 * following slots. */
inline unsigned pc_var_slot(uintptr_t pc) { return unsigned((pc * 0x9E3779B97F4A7C15ull) >> (64 - kPcVarBits)); }
void track_new_pc_var(uintptr_t pc, uint16_t var, uint32_t off, unsigned size, bool is_write);

/* Records that pc touched [off, off + size) of variable var. */
inline void track_pc_var(uintptr_t pc, uint16_t var, uint32_t off, unsigned size, bool is_write)
{
    pc_var_use &u = g_pc_vars[pc_var_slot(pc)];
    if (__builtin_expect(u.pc == pc && u.var == var, 1)) {
        u.count++;
        if (off < u.min_off)
            u.min_off = off;
        if (off + size > u.max_end)
            u.max_end = off + size;
        return;
    }
    track_new_pc_var(pc, var, off, size, is_write);
}

void pc_vars_launch_begin();
/* Turns what each instruction touched into shared-oob findings. */
void pc_vars_launch_end();

} // namespace cugrade::emu

#endif

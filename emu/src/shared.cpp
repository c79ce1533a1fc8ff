/* shared.cpp - shared memory in the emulator.
 *
 * Every `__shared__` variable is a function-static placed in the ELF section
 * "cugrade_shared" (see cuda_runtime.h); blocks run one after another, so
 * one static is exactly one block's copy. The dynamic shared buffer
 * (`extern __shared__`, rewritten to point at __cugrade_dynamic_smem) lives
 * in the same section. The linker's __start_/__stop_cugrade_shared bound it,
 * which gives the static shared size: the section minus the dynamic buffer.
 * Before each block the runtime poisons that memory with a NaN pattern, so a
 * kernel that reads shared memory it did not write this block sees garbage,
 * as it would on a GPU, but the same garbage every run.
 *
 * g++ 12 ignores the section attribute on statics inside function templates
 * (they go to .bss): such variables still work per block but are neither
 * counted nor poisoned. */
#include <cstring>

#include "emu_internal.h"

extern "C" {
__attribute__((section("cugrade_shared"), aligned(16))) unsigned char
    __cugrade_dynamic_smem[CUGRADE_MAX_DYNAMIC_SMEM];
extern unsigned char __start_cugrade_shared[] __attribute__((weak));
extern unsigned char __stop_cugrade_shared[] __attribute__((weak));
}

namespace cugrade::emu {
namespace {

void fill_poison(unsigned char *begin, unsigned char *end)
{
    uint32_t pattern = kSharedPoison;
    for (; begin + sizeof pattern <= end; begin += sizeof pattern)
        memcpy(begin, &pattern, sizeof pattern);
    for (int i = 0; begin < end; begin++, i++)
        *begin = reinterpret_cast<const unsigned char *>(&pattern)[i];
}

bool section_known() { return __start_cugrade_shared && __stop_cugrade_shared; }

/* The linker-made section bounds are declared as arrays of unknown size, so
 * a fortified memcpy believes they hold 0 bytes. Hide their origin. */
unsigned char *section_pointer(unsigned char *p)
{
    asm("" : "+r"(p));
    return p;
}

} // namespace

size_t static_shared_size()
{
    if (!section_known())
        return 0;
    size_t section = size_t(__stop_cugrade_shared - __start_cugrade_shared);
    return section > sizeof __cugrade_dynamic_smem ? section - sizeof __cugrade_dynamic_smem : 0;
}

void poison_shared(size_t dynamic_bytes)
{
    unsigned char *dyn = __cugrade_dynamic_smem;
    unsigned char *dyn_end = dyn + sizeof __cugrade_dynamic_smem;
    if (section_known()) {
        fill_poison(section_pointer(__start_cugrade_shared), dyn);
        fill_poison(dyn_end, section_pointer(__stop_cugrade_shared));
    }
    fill_poison(dyn, dyn + (dynamic_bytes < sizeof __cugrade_dynamic_smem ? dynamic_bytes
                                                                           : sizeof __cugrade_dynamic_smem));
}

} // namespace cugrade::emu

size_t cugrade::static_shared_bytes() { return cugrade::emu::static_shared_size(); }

/* shared_check.cpp - races and uninitialised reads in shared memory.
 *
 * One shadow record per 4-byte word of the cugrade_shared section holds the
 * last writer (thread, barrier interval, pc, bytes written, atomic or not),
 * the first reader of the current interval and a second, different one
 * (thread, pc, bytes), and the interval of the last write of any kind. The
 * interval is g_exec.epoch, which grows at every block start and barrier
 * release and never repeats, so nothing is cleared between intervals,
 * blocks or launches. Within one interval the fibers of a block run one
 * after another, so a conflict is seen whatever the order:
 *   read  by t: the word's writer of this interval is another thread  (RAW)
 *   write by t: its writer of this interval is another thread         (WAW)
 *               or one of its readers of this interval is              (WAR)
 * Atomics never conflict with atomics. A read of a word no thread of this
 * block wrote (last write before the block's first interval) is held until
 * the interval ends: if another thread writes the word later in the same
 * interval, the read was a race (reported as such), otherwise it becomes an
 * uninit-shared finding. Loads of words the block wrote are counted as
 * shared_staged_loads. */
#include <cstdio>
#include <cstring>
#include <utility>

#include "shared_check.h"

namespace cugrade::emu {
namespace {

constexpr uint16_t kNoThread = 0xFFFF;

/* 32 bytes, so that the tiles of a block fit in the L1 cache. Epochs are
 * kept in 32 bits (shared_check_block_begin renumbers long before they
 * wrap) and pcs as offsets in the program image. */
struct word_shadow {
    uint32_t init_epoch;  /* last write of any kind (plain, atomic) */
    uint32_t write_epoch; /* last write */
    uint32_t read_epoch;  /* the readers below belong to this interval */
    uint32_t write_pc, read_pc, read2_pc;
    uint16_t writer, reader, reader2; /* reader2: another thread than reader, or kNoThread */
    uint8_t write_bits; /* bytes written (bit i = byte i), kAtomicWrite if by an atomic */
    uint8_t read_bits;  /* bytes read by reader (low nibble) and by reader2 (high nibble) */
};
static_assert(sizeof(word_shadow) == 32, "two words per cache line");
constexpr uint8_t kAtomicWrite = 0x10;
constexpr uint32_t kRenumberAbove = 0x80000000u;

/* A read of a never-written word, decided when its interval ends. */
struct pending_read {
    size_t word;
    uint64_t epoch;
    uintptr_t pc, addr;
    uint16_t thread, var;
    unsigned size;
    bool atomic; /* an atomic's read of the old value: never a race */
    unsigned long long count;
};
constexpr size_t kMaxPending = 64;

std::vector<word_shadow> g_words;
std::vector<uint16_t> g_word_var; /* the variable holding each word (see shared_check.h) */
std::vector<uintptr_t> g_var_lo;  /* by variable id; [kGapVar] = the section's start */

/* The same tables as plain pointers, together in one cache line for the
 * per-access path. */
struct hot_tables {
    word_shadow *words;
    uint16_t *word_var;
    const uintptr_t *var_lo;
    size_t nwords, nvars;
};
hot_tables g_hot;
uintptr_t g_base;
size_t g_dynamic_lo_word, g_dynamic_end_word; /* the dynamic buffer, in words */
uint16_t g_dynamic_var;
size_t g_dynamic_limit;
pending_read g_pending[kMaxPending];
size_t g_npending;

/* ---- the layout: which variable each word belongs to ------------------------------- */
void build_layout()
{
    g_base = g_ranges.shared_lo;
    g_words.assign(g_ranges.shared_len / 4 + 1, word_shadow{});
    g_word_var.assign(g_words.size(), kGapVar);
    for (word_shadow &w : g_words)
        w.writer = w.reader = w.reader2 = kNoThread;
    const std::vector<shared_var> &vars = shared_vars();
    g_var_lo.assign(1, g_base);
    for (size_t i = 0; i < vars.size() && i + 1 < kBeyondVar; i++) {
        g_var_lo.push_back(vars[i].lo);
        size_t lo = (vars[i].lo - g_base) / 4, hi = (vars[i].hi - g_base + 3) / 4;
        for (size_t w = lo; w < hi && w < g_words.size(); w++)
            if (g_word_var[w] == kGapVar)
                g_word_var[w] = uint16_t(i + 1);
        if (vars[i].dynamic) {
            g_dynamic_var = uint16_t(i + 1);
            g_dynamic_lo_word = lo;
            g_dynamic_end_word = hi < g_words.size() ? hi : g_words.size();
        }
    }
    g_hot = hot_tables{g_words.data(), g_word_var.data(), g_var_lo.data(), g_words.size(), g_var_lo.size()};
}

/* Words of the dynamic buffer past the launch's size become kBeyondVar. */
void mark_dynamic_limit(size_t bytes)
{
    g_dynamic_limit = bytes;
    size_t limit = g_dynamic_lo_word + (bytes + 3) / 4;
    for (size_t w = g_dynamic_lo_word; w < g_dynamic_end_word; w++)
        g_word_var[w] = w < limit ? g_dynamic_var : kBeyondVar;
}

/* ---- reports ------------------------------------------------------------------------- */
/* "tileA (element 16, byte offset 64)" for an access of size bytes at addr. */
void describe_element(char *buf, size_t len, uint16_t var, uintptr_t addr, unsigned size)
{
    size_t off = addr - shared_var_lo(var);
    snprintf(buf, len, "%s (element %zu, byte offset %zu)", shared_var_label(var), off / (size ? size : 1), off);
}

void launch_context(char *buf, size_t len)
{
    const launch_site &s = *g_exec.site;
    snprintf(buf, len, "kernel %s launched at %s:%d", s.name, s.file, s.line);
}

void report_race(uint16_t var, uintptr_t addr, unsigned size, uint16_t writer, uintptr_t write_pc,
                 uint16_t other, uintptr_t other_pc, bool other_writes)
{
    uintptr_t pc0 = write_pc, pc1 = other_pc;
    if (other_writes && pc1 < pc0) { /* the same pair of writes, whatever the order */
        std::swap(pc0, pc1);
        std::swap(writer, other);
    }
    if (finding_repeat(diag_kind::race, pc0, pc1))
        return;
    char what[256], where[256];
    describe_element(what, sizeof what, var, addr, size);
    launch_context(where, sizeof where);
    const char *shared = shared_label_prefix(shared_var_label(var));
    uint3 w = thread_of(writer), o = thread_of(other), b = g_exec.block_idx;
    if (other_writes)
        finding_add(diag_kind::race, pc0, pc1,
                    "Race on %s%s in %s: threads (%u,%u,%u) and (%u,%u,%u) of block (%u,%u,%u) both write "
                    "it, at " CUGRADE_LOC0 " and " CUGRADE_LOC1 ", in the same barrier interval; a "
                    "__syncthreads() is missing between them, or only one thread should write it.",
                    shared, what, where, w.x, w.y, w.z, o.x, o.y, o.z, b.x, b.y, b.z);
    else
        finding_add(diag_kind::race, pc0, pc1,
                    "Race on %s%s in %s: thread (%u,%u,%u) of block (%u,%u,%u) writes it at " CUGRADE_LOC0
                    " while thread (%u,%u,%u) reads it at " CUGRADE_LOC1 " in the same barrier interval; a "
                    "__syncthreads() is missing between them.",
                    shared, what, where, w.x, w.y, w.z, b.x, b.y, b.z, o.x, o.y, o.z);
}

void report_uninit(const pending_read &r)
{
    if (finding_repeat(diag_kind::uninit_shared, r.pc, 0, r.count))
        return;
    char what[256], where[256];
    describe_element(what, sizeof what, r.var, r.addr, r.size);
    launch_context(where, sizeof where);
    uint3 t = thread_of(r.thread), b = g_exec.block_idx;
    finding_add(diag_kind::uninit_shared, r.pc, 0,
                "Uninitialised shared memory read in %s: thread (%u,%u,%u) of block (%u,%u,%u) reads %s at " CUGRADE_LOC0
                ", but no thread of this block has written it, so it holds garbage; store every element the "
                "block reads (0 where there is no data) before the __syncthreads() that precedes the reads.",
                where, t.x, t.y, t.z, b.x, b.y, b.z, what);
    finding_repeat(diag_kind::uninit_shared, r.pc, 0, r.count - 1);
}

void hold_uninit_read(size_t word, uintptr_t pc, uint16_t var, uintptr_t addr, unsigned size, bool atomic)
{
    if (finding_repeat(diag_kind::uninit_shared, pc, 0))
        return;
    for (size_t i = 0; i < g_npending; i++)
        if (g_pending[i].pc == pc) {
            g_pending[i].count++;
            return;
        }
    if (g_npending < kMaxPending)
        g_pending[g_npending++] = pending_read{word, g_exec.epoch, pc, addr, uint16_t(g_exec.thread_linear),
                                               var, size, atomic, 1};
}

/* ---- the checks on one word -------------------------------------------------------- */
inline uint8_t byte_mask(size_t off, unsigned size, size_t word)
{
    size_t lo = word * 4, begin = off > lo ? off - lo : 0, end = off + size - lo;
    if (end > 4)
        end = 4;
    return uint8_t(((1u << end) - 1) & ~((1u << begin) - 1));
}

inline uint32_t pc_offset(uintptr_t pc) { return uint32_t(pc - g_ranges.image_lo); }
inline uintptr_t full_pc(uint32_t offset) { return g_ranges.image_lo + offset; }

inline void note_reader(word_shadow &s, uint16_t t, uint8_t mask, uint32_t pc, uint32_t e)
{
    if (s.read_epoch != e) {
        s.read_epoch = e;
        s.reader = t;
        s.read_bits = mask;
        s.read_pc = pc;
        s.reader2 = kNoThread;
    } else if (s.reader == t) {
        s.read_bits |= mask;
    } else {
        if (s.reader2 == kNoThread) {
            s.reader2 = t;
            s.read2_pc = pc;
        }
        s.read_bits |= uint8_t(mask << 4);
    }
}

/* Returns whether the word was written in this block. */
inline bool read_word(size_t w, uint8_t mask, uintptr_t pc, uintptr_t addr, unsigned size)
{
    word_shadow &s = g_hot.words[w];
    uint32_t e = uint32_t(g_exec.epoch);
    uint16_t t = uint16_t(g_exec.thread_linear);
    if (__builtin_expect(s.write_epoch == e && s.writer != t && (s.write_bits & mask), 0))
        report_race(g_word_var[w], addr, size, s.writer, full_pc(s.write_pc), t, pc, false);
    note_reader(s, t, mask, pc_offset(pc), e);
    return s.init_epoch >= uint32_t(g_exec.block_epoch);
}

/* The conflicts of a write by t with this interval's readers. */
inline void check_readers(size_t w, uint16_t t, uint8_t mask, uintptr_t pc, uintptr_t addr, unsigned size)
{
    const word_shadow &s = g_hot.words[w];
    if (s.read_epoch != uint32_t(g_exec.epoch))
        return;
    if (s.reader != t && (s.read_bits & mask))
        report_race(g_word_var[w], addr, size, t, pc, s.reader, full_pc(s.read_pc), false);
    else if (s.reader2 != kNoThread && s.reader2 != t && ((s.read_bits >> 4) & mask))
        report_race(g_word_var[w], addr, size, t, pc, s.reader2, full_pc(s.read2_pc), false);
}

inline void write_word(size_t w, uint8_t mask, uintptr_t pc, uintptr_t addr, unsigned size, bool atomic)
{
    word_shadow &s = g_hot.words[w];
    uint32_t e = uint32_t(g_exec.epoch);
    uint16_t t = uint16_t(g_exec.thread_linear);
    bool same_interval = s.write_epoch == e;
    bool both_atomic = atomic && (s.write_bits & kAtomicWrite);
    if (same_interval && s.writer != t && (s.write_bits & mask) && !both_atomic)
        report_race(g_word_var[w], addr, size, s.writer, full_pc(s.write_pc), t, pc, true);
    check_readers(w, t, mask, pc, addr, size);
    uint8_t bytes = same_interval && s.writer == t ? uint8_t((s.write_bits | mask) & 0xF) : mask;
    s.write_bits = uint8_t(bytes | (atomic ? kAtomicWrite : 0));
    s.writer = t;
    s.write_epoch = e;
    s.write_pc = pc_offset(pc);
    s.init_epoch = e;
}

/* Words [first, last] of an access; false if it is not ours to check. */
inline bool word_span(uintptr_t addr, unsigned size, size_t *first, size_t *last)
{
    size_t off = addr - g_base;
    *first = off / 4;
    *last = (off + size - 1) / 4;
    if (*last >= g_hot.nwords)
        *last = g_hot.nwords - 1;
    return *first < g_hot.nwords;
}

inline uint32_t offset_in(uint16_t var, uintptr_t addr)
{
    return uint32_t(addr - (__builtin_expect(var < g_hot.nvars, 1) ? g_hot.var_lo[var] : shared_var_lo(var)));
}

inline bool is_stray(uint16_t var) { return var == kGapVar || var == kBeyondVar; }

/* Any access: several words, unaligned, not 4 bytes. may_hold: a read of
 * never-written words may become an uninit-shared finding (not for words
 * an asynchronous copy is writing: that read is a race already). */
void access_words(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc, bool may_hold = true)
{
    size_t first, last;
    if (!word_span(addr, size, &first, &last))
        return;
    uint16_t var = g_hot.word_var[first];
    track_pc_var(pc, var, offset_in(var, addr), size, is_write);
    (is_write ? g_check_counts.shared_store_bytes : g_check_counts.shared_load_bytes) += size;
    if (is_stray(var))
        return;
    size_t off = addr - g_base;
    bool written = true;
    for (size_t w = first; w <= last; w++) {
        if (is_write)
            write_word(w, byte_mask(off, size, w), pc, addr, size, false);
        else
            written &= read_word(w, byte_mask(off, size, w), pc, addr, size);
    }
    if (is_write)
        return;
    if (written)
        g_check_counts.shared_staged_loads++;
    else if (may_hold)
        hold_uninit_read(first, pc, var, addr, size, false);
}

} // namespace

/* ---- layout queries (shared_check.h) -------------------------------------------------- */
uintptr_t shared_var_lo(uint16_t id)
{
    if (id == kBeyondVar)
        return g_base + g_dynamic_lo_word * 4;
    return id == kGapVar || id > shared_vars().size() ? g_base : shared_vars()[id - 1].lo;
}
size_t shared_var_size(uint16_t id)
{
    if (id == kGapVar || id == kBeyondVar || id > shared_vars().size())
        return 0;
    return id == g_dynamic_var ? g_dynamic_limit : shared_vars()[id - 1].hi - shared_vars()[id - 1].lo;
}
const char *shared_var_label(uint16_t id)
{
    if (id == kGapVar)
        return "shared memory no variable owns";
    if (id == kBeyondVar || id == g_dynamic_var)
        return "the dynamic shared memory";
    return id <= shared_vars().size() ? shared_vars()[id - 1].name.c_str() : "shared memory";
}
const char *shared_address_label(uintptr_t addr, size_t *offset)
{
    size_t w = (addr - g_base) / 4;
    uint16_t var = w < g_hot.nwords ? g_hot.word_var[w] : kGapVar;
    *offset = addr - shared_var_lo(var);
    return shared_var_label(var);
}
const char *shared_label_prefix(const char *label) { return strncmp(label, "the ", 4) == 0 ? "" : "shared "; }
uint16_t dynamic_var_id() { return g_dynamic_var; }
size_t dynamic_shared_limit() { return g_dynamic_limit; }

/* ---- the hooks' entry points --------------------------------------------------------- */
bool is_shared_address(uintptr_t addr) { return addr - g_ranges.shared_lo < g_ranges.shared_len; }

void shared_access(uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    traffic::access(true, addr, size, is_write, pc);
    if (__builtin_expect(g_async_inflight != 0, 0) && async_inflight_access(addr, size, is_write, pc)) {
        access_words(addr, size, is_write, pc, false);
        return;
    }
    size_t off = addr - g_base, w = off / 4;
    if (__builtin_expect(size != 4 || (off & 3) != 0 || w >= g_hot.nwords, 0)) {
        access_words(addr, size, is_write, pc);
        return;
    }
    /* The common case: one aligned 4-byte word. */
    uint16_t var = g_hot.word_var[w];
    track_pc_var(pc, var, offset_in(var, addr), 4, is_write);
    if (is_write) {
        g_check_counts.shared_store_bytes += 4;
        if (!is_stray(var))
            write_word(w, 0xF, pc, addr, 4, false);
        return;
    }
    g_check_counts.shared_load_bytes += 4;
    if (is_stray(var))
        return;
    if (read_word(w, 0xF, pc, addr, 4))
        g_check_counts.shared_staged_loads++;
    else
        hold_uninit_read(w, pc, var, addr, 4, false);
}

void shared_atomic(uintptr_t addr, unsigned size, bool reads_old, uintptr_t pc)
{
    size_t first, last;
    if (!word_span(addr, size, &first, &last))
        return;
    uint16_t var = g_hot.word_var[first];
    track_pc_var(pc, var, offset_in(var, addr), size, true);
    traffic::access(true, addr, size, true, pc);
    g_check_counts.shared_store_bytes += size;
    g_check_counts.shared_load_bytes += reads_old ? size : 0;
    if (var == kGapVar || var == kBeyondVar)
        return;
    size_t off = addr - g_base;
    for (size_t w = first; w <= last; w++) {
        if (reads_old && g_words[w].init_epoch < uint32_t(g_exec.block_epoch))
            hold_uninit_read(w, pc, var, addr, size, true);
        write_word(w, byte_mask(off, size, w), pc, addr, size, true);
    }
}

/* ---- lifecycle ------------------------------------------------------------------------ */
void shared_check_launch_begin(size_t dynamic_shared_bytes)
{
    if (g_words.empty() && g_ranges.shared_len > 0)
        build_layout();
    if (g_dynamic_var)
        mark_dynamic_limit(dynamic_shared_bytes);
    g_npending = 0;
    pc_vars_launch_begin();
}

void shared_check_block_begin()
{
    if (uint32_t(g_exec.epoch) < kRenumberAbove || g_words.empty())
        return;
    /* Start the 32-bit epochs again from 1: nothing recorded so far may
     * match a later interval. */
    for (word_shadow &w : g_words)
        w.init_epoch = w.write_epoch = w.read_epoch = 0;
    for (size_t i = 0; i < g_npending; i++)
        g_pending[i].epoch = 0;
    g_exec.epoch = (g_exec.epoch | 0xFFFFFFFFull) + 2;
    g_exec.block_epoch = g_exec.epoch;
}

void shared_check_interval_end()
{
    for (size_t i = 0; i < g_npending; i++) {
        const pending_read &r = g_pending[i];
        const word_shadow &s = g_words[r.word];
        bool written_later_by_other = s.write_epoch == uint32_t(r.epoch) && s.writer != r.thread;
        if (r.atomic || !written_later_by_other)
            report_uninit(r);
    }
    g_npending = 0;
}

void shared_check_launch_end() { pc_vars_launch_end(); }

} // namespace cugrade::emu

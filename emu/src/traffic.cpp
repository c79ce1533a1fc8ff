/* traffic.cpp - memory-traffic analysis of the checking mode: how well a
 * kernel's global accesses coalesce and how many shared-memory bank
 * conflicts it has, measured on the emulator as a GPU would count them.
 *
 * Every in-kernel load and store arrives through access() (hooks.cpp) and is
 * counted in bytes. On a sample of blocks (traffic_detail.h: the first 4,
 * every 64th and the last, by linear block index) the accesses are also
 * grouped into warp accesses: the threads thread_linear / 32 of a block form
 * a warp, and the k-th execution of one instruction (pc) by each thread of a
 * warp within one barrier interval is one warp access, as a GPU warp that
 * reconverges at every barrier would issue it. Fibers run one thread at a
 * time from barrier to barrier, and the threads of a warp run one after
 * another, so only the warp being run is recorded: a per-(pc, lane)
 * execution counter gives k, and the warp's accesses are analysed when
 * another warp, a new barrier interval or the block's end comes.
 *
 * A global warp access touches some 32-byte sectors; at least
 * ceil(distinct bytes / 32) would do. A shared warp access takes as many
 * wavefronts as the most distinct 4-byte words it touches in one of the 32
 * banks (threads reading the same word share it: a broadcast); at least
 * ceil(distinct words / 32) would do, which is 1 for accesses of up to 4
 * bytes. Per launch this file emits (diag_stat, diag_info)
 *     stat coalesced_sectors / min_sectors, bank_wavefronts / min_wavefronts,
 *          analysed_blocks (the sampled blocks these sums cover)
 *     info coalescing       the instruction with the worst sectors ratio
 *                           (when above 1.5) or a line saying all coalesce
 *     info bank-conflicts   likewise for wavefronts
 * (byte counts are the checker core's to emit; traffic_detail.h has ours).
 *
 * Bounds per warp and barrier interval (accesses past them are counted in
 * bytes only): the first kMaxExecs executions of a pc by each thread,
 * kMaxWarpSites distinct sites, kMaxGroups warp accesses; each thread's
 * access is looked at up to kMaxLaneBytes. Nothing is allocated per access:
 * the tables are sized once and cleared through lists of the slots in use. */
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "traffic_detail.h"

namespace cugrade::emu::traffic {
namespace {

/* ---- sites: one instruction, one memory space, one direction --------------- */
inline uint64_t site_key(uintptr_t pc, bool is_shared, bool is_write)
{
    return ((uint64_t(pc) << 2) | (uint64_t(is_shared) << 1) | uint64_t(is_write)) + 1; /* never 0 */
}
inline uintptr_t key_pc(uint64_t key) { return uintptr_t((key - 1) >> 2); }
inline bool key_shared(uint64_t key) { return ((key - 1) >> 1) & 1; }
inline bool key_write(uint64_t key) { return (key - 1) & 1; }
inline unsigned slot_of(uint64_t key, unsigned bits)
{
    return unsigned((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* ---- the warp being recorded ----------------------------------------------- */
struct warp_site {
    uint64_t key;                /* 0: free */
    uint16_t count[kWarpSize];   /* executions so far, per lane */
    int32_t group[kMaxExecs];    /* warp access of the k-th execution, or -1 */
};
constexpr unsigned kWarpTableBits = 9;
static_assert((1u << kWarpTableBits) >= 2 * kMaxWarpSites, "warp table load factor");

struct warp_recorder {
    std::vector<warp_site> slots;
    std::vector<uint16_t> used; /* slots in use, in first-seen order */
    std::vector<warp_group> groups;
    unsigned ngroups = 0;
    bool open = false;
    unsigned warp = 0;
    uint64_t epoch = 0;
};

/* ---- the launch: per-site sums and the worst warp access of each ------------ */
struct site_stats {
    uint64_t key; /* 0: free */
    uint64_t warp_accesses, units, min_units;
    warp_shape worst; /* the warp access with the most units beyond its minimum */
    uint64_t worst_excess;
    uintptr_t worst_addr; /* its lowest lane's address and size */
    unsigned worst_size;
};
constexpr unsigned kSiteTableBits = 12;
static_assert((1u << kSiteTableBits) >= 2 * kMaxLaunchSites, "site table load factor");

struct launch_state {
    unsigned long long bytes[2][2]; /* [is_shared][is_write] */
    launch_totals sums;
    bool sampling;     /* the running block is analysed */
    dim3 block;        /* the running block's shape, for naming thread indices */
    std::vector<site_stats> slots;
    std::vector<uint16_t> used;
};

warp_recorder g_rec;
launch_state g_launch;

/* ---- analysis of one warp access ------------------------------------------- */
struct byte_range {
    uintptr_t start, end;
};

void sort_ranges(byte_range *r, unsigned n)
{
    for (unsigned i = 1; i < n; i++) { /* lanes come mostly in address order */
        byte_range v = r[i];
        unsigned j = i;
        for (; j > 0 && (r[j - 1].start > v.start || (r[j - 1].start == v.start && r[j - 1].end > v.end)); j--)
            r[j] = r[j - 1];
        r[j] = v;
    }
}

/* Counts distinct units of 2^shift bytes over sorted, merged ranges. */
uint64_t distinct_units(const byte_range *r, unsigned n, unsigned shift)
{
    uint64_t count = 0;
    uintptr_t last = 0;
    bool any = false;
    for (unsigned i = 0; i < n; i++) {
        uintptr_t first = r[i].start >> shift, end = (r[i].end - 1) >> shift;
        count += end - first + 1;
        if (any && first == last)
            count--;
        last = end;
        any = true;
    }
    return count;
}

/* The most distinct words in one bank. */
uint64_t bank_wavefronts(const byte_range *r, unsigned n)
{
    unsigned per_bank[kBanks] = {};
    uintptr_t last = 0;
    bool any = false;
    for (unsigned i = 0; i < n; i++)
        for (uintptr_t w = r[i].start / kBankWordBytes; w <= (r[i].end - 1) / kBankWordBytes; w++) {
            if (any && w == last)
                continue;
            per_bank[w % kBanks]++;
            last = w;
            any = true;
        }
    return *std::max_element(per_bank, per_bank + kBanks);
}

/* Both lanes lane - 1 and lane took part. */
inline bool pair_present(uint32_t mask, unsigned lane) { return (mask >> (lane - 1) & 3u) == 3u; }

/* The address step between consecutive lanes that most lane pairs share
 * (a majority vote, then a count). */
void lane_stride(const warp_group &g, warp_shape *s)
{
    int64_t candidate = 0;
    unsigned votes = 0, pairs = 0, matches = 0;
    for (unsigned lane = 1; lane < kWarpSize; lane++) {
        if (!pair_present(g.mask, lane))
            continue;
        int64_t d = int64_t(g.addr[lane] - g.addr[lane - 1]);
        pairs++;
        if (votes == 0)
            candidate = d;
        if (d == candidate)
            votes++;
        else
            votes--;
    }
    for (unsigned lane = 1; lane < kWarpSize; lane++)
        if (pair_present(g.mask, lane) && int64_t(g.addr[lane] - g.addr[lane - 1]) == candidate)
            matches++;
    s->stride = candidate;
    s->regular = pairs > 0 && 2 * matches >= pairs;
}

} // namespace

warp_shape analyse(const warp_group &g, bool is_shared)
{
    warp_shape s = {};
    byte_range r[kWarpSize];
    unsigned n = 0;
    for (unsigned lane = 0; lane < kWarpSize; lane++)
        if (g.mask >> lane & 1u)
            r[n++] = {g.addr[lane], g.addr[lane] + std::max<unsigned>(g.size[lane], 1)};
    s.lanes = n;
    if (n == 0)
        return s;
    sort_ranges(r, n);
    for (unsigned i = 0; i < n; i++) /* sorted by start: r[0] starts lowest */
        s.span = std::max<uint64_t>(s.span, r[i].end - r[0].start);
    s.distinct_addrs = 1;
    for (unsigned i = 1; i < n; i++)
        s.distinct_addrs += r[i].start != r[i - 1].start;
    unsigned m = 0; /* merge overlapping ranges */
    for (unsigned i = 1; i < n; i++) {
        if (r[i].start <= r[m].end)
            r[m].end = std::max(r[m].end, r[i].end);
        else
            r[++m] = r[i];
    }
    m++;
    for (unsigned i = 0; i < m; i++)
        s.union_bytes += r[i].end - r[i].start;
    if (is_shared) {
        uint64_t words = distinct_units(r, m, 2);
        s.wavefronts = bank_wavefronts(r, m);
        s.min_wavefronts = std::max<uint64_t>(1, (words + kBanks - 1) / kBanks);
    } else {
        s.sectors = distinct_units(r, m, 5);
        s.min_sectors = std::max<uint64_t>(1, (s.union_bytes + kSectorBytes - 1) / kSectorBytes);
    }
    lane_stride(g, &s);
    return s;
}

bool block_is_sampled(uint64_t linear, uint64_t nblocks)
{
    return linear < kSampleFirst || linear + 1 == nblocks || linear % kSampleEvery == 0;
}

launch_totals totals()
{
    launch_totals t = g_launch.sums;
    t.global_load_bytes = g_launch.bytes[0][0];
    t.global_store_bytes = g_launch.bytes[0][1];
    t.shared_load_bytes = g_launch.bytes[1][0];
    t.shared_store_bytes = g_launch.bytes[1][1];
    return t;
}

namespace {

/* ---- per-launch site table --------------------------------------------------- */
site_stats *launch_site(uint64_t key)
{
    launch_state &L = g_launch;
    unsigned mask = (1u << kSiteTableBits) - 1;
    for (unsigned i = slot_of(key, kSiteTableBits);; i = (i + 1) & mask) {
        site_stats &s = L.slots[i];
        if (s.key == key)
            return &s;
        if (s.key != 0)
            continue;
        if (L.used.size() >= kMaxLaunchSites)
            return nullptr;
        s = site_stats{};
        s.key = key;
        L.used.push_back(uint16_t(i));
        return &s;
    }
}

void add_warp_access(uint64_t key, const warp_group &g)
{
    bool shared = key_shared(key);
    warp_shape shape = analyse(g, shared);
    uint64_t units = shared ? shape.wavefronts : shape.sectors;
    uint64_t min_units = shared ? shape.min_wavefronts : shape.min_sectors;
    launch_totals &t = g_launch.sums;
    (shared ? t.bank_wavefronts : t.coalesced_sectors) += units;
    (shared ? t.min_wavefronts : t.min_sectors) += min_units;
    site_stats *s = launch_site(key);
    if (!s)
        return;
    uint64_t excess = units - min_units;
    if (s->warp_accesses == 0 || excess > s->worst_excess) {
        s->worst = shape;
        s->worst_excess = excess;
        unsigned lowest = unsigned(__builtin_ctz(g.mask));
        s->worst_addr = g.addr[lowest];
        s->worst_size = g.size[lowest];
    }
    s->warp_accesses++;
    s->units += units;
    s->min_units += min_units;
}

/* ---- the recorded warp --------------------------------------------------------- */
void flush_warp()
{
    warp_recorder &R = g_rec;
    for (uint16_t idx : R.used) {
        warp_site &w = R.slots[idx];
        for (unsigned k = 0; k < kMaxExecs; k++)
            if (w.group[k] >= 0)
                add_warp_access(w.key, R.groups[size_t(w.group[k])]);
        w.key = 0;
    }
    R.used.clear();
    R.ngroups = 0;
    R.open = false;
}

warp_site *warp_site_for(uint64_t key)
{
    warp_recorder &R = g_rec;
    unsigned mask = (1u << kWarpTableBits) - 1;
    for (unsigned i = slot_of(key, kWarpTableBits);; i = (i + 1) & mask) {
        warp_site &w = R.slots[i];
        if (w.key == key)
            return &w;
        if (w.key != 0)
            continue;
        if (R.used.size() >= kMaxWarpSites)
            return nullptr;
        w.key = key;
        memset(w.count, 0, sizeof w.count);
        memset(w.group, 0xff, sizeof w.group);
        R.used.push_back(uint16_t(i));
        return &w;
    }
}

__attribute__((noinline)) void record(bool is_shared, uintptr_t addr, unsigned size, bool is_write,
                                      uintptr_t pc)
{
    warp_recorder &R = g_rec;
    unsigned warp = g_exec.thread_linear / kWarpSize, lane = g_exec.thread_linear % kWarpSize;
    if (!R.open || warp != R.warp || g_exec.epoch != R.epoch) {
        flush_warp();
        R.open = true;
        R.warp = warp;
        R.epoch = g_exec.epoch;
    }
    warp_site *w = warp_site_for(site_key(pc, is_shared, is_write));
    unsigned k = w ? w->count[lane] : kMaxExecs;
    if (k >= kMaxExecs) {
        g_launch.sums.ungrouped_accesses++;
        return;
    }
    w->count[lane] = uint16_t(k + 1);
    if (w->group[k] < 0) {
        if (R.ngroups == kMaxGroups) {
            g_launch.sums.ungrouped_accesses++;
            return;
        }
        w->group[k] = int32_t(R.ngroups++);
        R.groups[size_t(w->group[k])].mask = 0;
    }
    warp_group &g = R.groups[size_t(w->group[k])];
    g.mask |= 1u << lane;
    g.addr[lane] = addr;
    g.size[lane] = uint8_t(std::min(size, kMaxLaneBytes));
}

/* ---- the explanations ----------------------------------------------------------- */
/* One info message, built piece by piece (too long a message is cut). */
struct message {
    char text[1024] = "";
    size_t len = 0;
    __attribute__((format(printf, 2, 3))) void add(const char *fmt, ...)
    {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(text + len, sizeof text - len, fmt, ap);
        va_end(ap);
        if (n > 0)
            len = std::min(len + size_t(n), sizeof text - 1);
    }
    /* "32" or "2.5": a per-warp-access average. */
    void amount(double v)
    {
        double rounded = double((long long)(v + 0.5));
        if (v - rounded < 0.05 && rounded - v < 0.05)
            add("%.0f", rounded);
        else
            add("%.1f", v);
    }
};

/* The index that consecutive thread_linear values step through. */
const char *lane_axis()
{
    const dim3 &b = g_launch.block;
    return b.x > 1 ? "threadIdx.x" : b.y > 1 ? "threadIdx.y" : b.z > 1 ? "threadIdx.z" : "threadIdx.x";
}

const char *loads_or_stores(uint64_t key) { return key_write(key) ? "stores" : "loads"; }
const char *read_or_write(uint64_t key) { return key_write(key) ? "write" : "read"; }

bool worse(const site_stats &a, const site_stats &b)
{
    double ra = double(a.units) / double(a.min_units), rb = double(b.units) / double(b.min_units);
    if (ra != rb)
        return ra > rb;
    return a.units - a.min_units > b.units - b.min_units;
}

const site_stats *worst_site(bool shared)
{
    const site_stats *worst = nullptr;
    for (uint16_t idx : g_launch.used) {
        const site_stats &s = g_launch.slots[idx];
        if (key_shared(s.key) == shared && s.min_units > 0 && (!worst || worse(s, *worst)))
            worst = &s;
    }
    return worst;
}

/* " (kernel K launched at f.cu:40; 20 of 1024 blocks analysed)" */
void add_launch_context(message &m)
{
    const launch_totals &t = g_launch.sums;
    const ::cugrade::launch_site *site = g_exec.site;
    m.add(" (");
    if (site && site->name && site->file)
        m.add("kernel %s launched at %s:%d; ", site->name, site->file, site->line);
    m.add("%llu of %llu blocks analysed)", t.analysed_blocks, t.launch_blocks);
}

/* Consecutive threads share an address, yet the warp reads several: e.g.
 * A[row][k] in a block narrower than a warp. */
unsigned rows_per_warp(const dim3 &b, unsigned lanes)
{
    return std::min((lanes + b.x - 1) / b.x, b.y);
}

void add_shared_address_cause(message &m, const warp_shape &w, const char *verb)
{
    const dim3 &b = g_launch.block;
    m.add("groups of consecutive threads (%s) %s the same address, but the %u threads of a warp %s %u "
          "distinct addresses spread over %llu bytes",
          lane_axis(), verb, w.lanes, verb, w.distinct_addrs, (unsigned long long)w.span);
    if (b.x > 1 && b.x < kWarpSize && b.y > 1)
        m.add(" (a warp spans %u values of threadIdx.y)", rows_per_warp(b, kWarpSize));
    m.add("; let each warp %s one address or one contiguous range (e.g. a block 32 threads wide)", verb);
}

/* Why the worst global site wastes sectors, and what to do about it. */
void add_coalescing_cause(message &m, const site_stats &s)
{
    const warp_shape &w = s.worst;
    const dim3 &b = g_launch.block;
    const char *verb = read_or_write(s.key), *axis = lane_axis();
    long long stride = (long long)w.stride, abs_stride = stride < 0 ? -stride : stride;
    if (w.regular && abs_stride >= kSectorBytes)
        m.add("consecutive threads (%s) %s addresses %lld bytes apart; make %s index the contiguous "
              "dimension",
              axis, verb, stride, axis);
    else if (w.regular && abs_stride > (long long)s.worst_size)
        m.add("consecutive threads (%s) %s %u-byte elements %lld bytes apart, so part of every sector "
              "goes unused; lay the data out so that consecutive threads %s consecutive elements "
              "(e.g. a structure of arrays instead of an array of structures)",
              axis, verb, s.worst_size, stride, verb);
    else if (w.regular && stride == 0 && w.distinct_addrs > 1)
        add_shared_address_cause(m, w, verb);
    else if (w.regular && abs_stride == (long long)s.worst_size && w.distinct_addrs == w.lanes &&
             s.worst_addr % kSectorBytes != 0)
        m.add("the warp's consecutive addresses start %u bytes into a 32-byte sector; align the start "
              "of each warp's range to 32 bytes",
              unsigned(s.worst_addr % kSectorBytes));
    else if (b.x > 1 && b.x * s.worst_size < kSectorBytes && b.y > 1) {
        unsigned rows = rows_per_warp(b, w.lanes);
        m.add("the block is %u threads wide, so a warp spans %u of its rows: its threads %s %u runs of %u "
              "bytes, each in a sector of its own; a block (a tile) at least %u threads wide reads whole "
              "sectors",
              b.x, rows, verb, rows, b.x * s.worst_size, unsigned(kSectorBytes / s.worst_size));
    }
    else
        m.add("the %u threads of a warp %s %u distinct addresses spread over %llu bytes; make "
              "consecutive threads (%s) %s consecutive addresses",
              w.lanes, verb, w.distinct_addrs, (unsigned long long)w.span, axis, verb);
}

void report_coalescing()
{
    const launch_totals &t = g_launch.sums;
    if (t.min_sectors == 0)
        return; /* no global access in the analysed blocks */
    message m;
    const site_stats *s = worst_site(false);
    if (!s || double(s->units) <= 1.5 * double(s->min_units)) {
        m.add("global accesses are coalesced: %llu sectors touched where %llu would do (%.2fx)",
              t.coalesced_sectors, t.min_sectors, double(t.coalesced_sectors) / double(t.min_sectors));
    } else {
        double n = double(s->warp_accesses);
        m.add("global %s at %s touch ", loads_or_stores(s->key), symbolize(key_pc(s->key)));
        m.amount(double(s->units) / n);
        m.add(" sectors per warp access where ");
        m.amount(double(s->min_units) / n);
        m.add(" would do (%.1fx): ", double(s->units) / double(s->min_units));
        add_coalescing_cause(m, *s);
    }
    add_launch_context(m);
    diag_info("coalescing", m.text);
}

/* Why the worst shared site conflicts, and what to do about it. */
void add_conflict_cause(message &m, const site_stats &s, unsigned ways)
{
    const warp_shape &w = s.worst;
    const char *axis = lane_axis();
    if (w.regular && w.stride != 0)
        m.add("consecutive threads (%s) access addresses %lld bytes apart, so %u threads of a warp use "
              "the same bank; pad each row by one element (e.g. [N][N+1]) or let %s index the "
              "contiguous dimension",
              axis, (long long)w.stride, ways, axis);
    else
        m.add("%u different 4-byte words of one warp access fall into the same bank; make consecutive "
              "threads (%s) access consecutive words (threads reading the same word share it for free)",
              ways, axis);
}

void report_bank_conflicts()
{
    const launch_totals &t = g_launch.sums;
    if (t.min_wavefronts == 0)
        return; /* no shared access in the analysed blocks */
    message m;
    const site_stats *s = worst_site(true);
    if (!s || double(s->units) <= 1.5 * double(s->min_units)) {
        m.add("shared accesses are free of bank conflicts: %llu wavefronts where %llu would do (%.2fx)",
              t.bank_wavefronts, t.min_wavefronts, double(t.bank_wavefronts) / double(t.min_wavefronts));
    } else {
        const warp_shape &w = s->worst;
        unsigned ways = unsigned((w.wavefronts + w.min_wavefronts / 2) / w.min_wavefronts);
        double n = double(s->warp_accesses);
        uintptr_t base = 0;
        size_t size = 0;
        const char *name = shared_variable_name(s->worst_addr, &base, &size);
        m.add("shared %s", loads_or_stores(s->key));
        if (name)
            m.add(" of %s", name);
        m.add(" at %s are %u-way bank conflicts (", symbolize(key_pc(s->key)), ways);
        m.amount(double(s->units) / n);
        m.add(" wavefronts per warp access where ");
        m.amount(double(s->min_units) / n);
        m.add(" would do): ");
        add_conflict_cause(m, *s, ways);
    }
    add_launch_context(m);
    diag_info("bank-conflicts", m.text);
}

} // namespace

/* ---- the lifecycle ----------------------------------------------------------------- */
void launch_begin()
{
    if (g_rec.slots.empty()) { /* sized once, kept for every launch */
        g_rec.slots.assign(size_t(1) << kWarpTableBits, warp_site{});
        g_rec.used.reserve(kMaxWarpSites);
        g_rec.groups.resize(kMaxGroups);
        g_launch.slots.assign(size_t(1) << kSiteTableBits, site_stats{});
        g_launch.used.reserve(kMaxLaunchSites);
    }
    flush_warp(); /* a launch that never ended leaves nothing behind */
    for (uint16_t idx : g_launch.used)
        g_launch.slots[idx].key = 0;
    g_launch.used.clear();
    memset(g_launch.bytes, 0, sizeof g_launch.bytes);
    g_launch.sums = launch_totals{};
    g_launch.sampling = false;
}

void block_begin()
{
    const dim3 &grid = g_exec.grid;
    const uint3 &b = g_exec.block_idx;
    uint64_t nblocks = uint64_t(grid.x) * grid.y * grid.z;
    uint64_t linear = b.x + uint64_t(grid.x) * (b.y + uint64_t(grid.y) * b.z);
    g_launch.sums.launch_blocks = nblocks;
    g_launch.block = g_exec.block;
    g_launch.sampling = block_is_sampled(linear, nblocks) && !g_rec.slots.empty();
    g_launch.sums.analysed_blocks += g_launch.sampling;
}

void access(bool is_shared, uintptr_t addr, unsigned size, bool is_write, uintptr_t pc)
{
    g_launch.bytes[is_shared][is_write] += size;
    if (__builtin_expect(g_launch.sampling, 0) && size > 0)
        record(is_shared, addr, size, is_write, pc);
}

void block_end()
{
    if (g_launch.sampling)
        flush_warp();
    g_launch.sampling = false;
}

void launch_end()
{
    if (g_rec.slots.empty())
        return; /* no launch_begin: nothing was counted */
    flush_warp();
    g_launch.sampling = false;
    const launch_totals &t = g_launch.sums;
    diag_stat("coalesced_sectors", t.coalesced_sectors);
    diag_stat("min_sectors", t.min_sectors);
    diag_stat("bank_wavefronts", t.bank_wavefronts);
    diag_stat("min_wavefronts", t.min_wavefronts);
    diag_stat("analysed_blocks", t.analysed_blocks);
    report_coalescing();
    report_bank_conflicts();
}

} // namespace cugrade::emu::traffic

/* ptx_block_ops.cpp - what an instruction does to a block (ptx_block.h),
 * lane by lane on the general path: every access bounds-checked and, with
 * the checks on, watched for races and uninitialised reads; arithmetic,
 * atomics, the warp's shuffles and votes, cp.async, a kernel's printf. */
#include "ptx_arith.h"
#include "ptx_block.h"
#include "ptx_printf.h"

#include <cstring>

namespace ptx {

constexpr uint64_t SIMULATED_SMS = 132; /* an H100's, as cudaGetDeviceProperties says (vcudart) */

uint64_t Block::special(uint8_t sp, int t) const
{
    ptx_dim3_t tid = thread_of(t);
    switch ((Special)sp) {
    case Special::TidX: return tid.x;
    case Special::TidY: return tid.y;
    case Special::TidZ: return tid.z;
    case Special::NtidX: return bdim.x;
    case Special::NtidY: return bdim.y;
    case Special::NtidZ: return bdim.z;
    case Special::CtaidX: return ctaid.x;
    case Special::CtaidY: return ctaid.y;
    case Special::CtaidZ: return ctaid.z;
    case Special::NctaidX: return grid.x;
    case Special::NctaidY: return grid.y;
    case Special::NctaidZ: return grid.z;
    case Special::LaneId: return (uint64_t)(t % WARP);
    case Special::WarpSize: return WARP;
    case Special::Clock: return (uint32_t)result.warp_instructions;
    case Special::Clock64:
    case Special::GlobalTimer: return result.warp_instructions;
    case Special::SmId: return (((uint64_t)ctaid.z * grid.y + ctaid.y) * grid.x + ctaid.x) % SIMULATED_SMS;
    case Special::NsmId: return SIMULATED_SMS;
    case Special::WarpId: return (uint64_t)(t / WARP);
    case Special::NwarpId: return 64;
    }
    return 0;
}

void Block::finding(ptx_finding_kind_t kind, int t, const Insn &in, uint64_t addr, uint32_t size,
                    int store, const Allocation *near)
{
    if (result.nfindings < sizeof result.findings / sizeof *result.findings) {
        ptx_finding_t &f = result.findings[result.nfindings];
        f.kind = kind;
        f.block = ctaid;
        f.thread = thread_of(t);
        f.line = in.line;
        f.file = in.file;
        f.shared = kind == PTX_FIND_SHARED_OOB || kind == PTX_FIND_RACE || (kind == PTX_FIND_UNINIT && uninit_shared);
        f.address = addr;
        f.size = size;
        f.is_store = store;
        f.near = near != nullptr;
        f.array = near ? near->base : 0;
        f.offset = near ? (int64_t)(addr - near->base) : 0;
    }
    result.nfindings++;
    if (kind == PTX_FIND_BARRIER)
        result.nbarrier++;
    else if (kind == PTX_FIND_RACE)
        result.nrace++;
    else if (kind == PTX_FIND_UNINIT)
        result.nuninit++;
    else {
        result.naddress++;
        result.nfault += near == nullptr;
    }
}

/* The bytes an access of size at addr (in in's space) reaches, or null
 * after a finding. */
uint8_t *Block::access(const Insn &in, int t, uint64_t addr, uint32_t size, int store)
{
    Space sp = in.space;
    if (sp == Space::Generic) { /* by the window it lies in */
        if (addr - SHARED_WINDOW < WINDOW_SIZE)
            sp = Space::Shared, addr -= SHARED_WINDOW;
        else if (addr - LOCAL_WINDOW < WINDOW_SIZE)
            sp = Space::Local, addr -= LOCAL_WINDOW;
        else
            sp = Space::Global;
    }
    if (addr % size != 0) {
        finding(PTX_FIND_MISALIGNED, t, in, addr, size, store);
        return nullptr;
    }
    switch (sp) {
    case Space::Global: {
        Allocation *a = last_hit && addr - last_hit->base < last_hit->bytes.size() ? last_hit : d.find(addr);
        last_hit = a ? a : last_hit; /* the next lane's is most likely the same array */
        if (!a || size > a->bytes.size() - (addr - a->base)) {
            const Allocation *by = !a ? d.near(addr, size) /* straddling a's end: near too */
                                   : addr + size <= a->base + a->bytes.size() + red_zone(a->bytes.size()) ? a
                                                                                                          : nullptr;
            finding(PTX_FIND_GLOBAL_OOB, t, in, addr, size, store, by);
            if (!by || size > sizeof stray)
                return nullptr;
            memset(stray, 0xff, sizeof stray); /* NaN, as the red zone a GPU would read */
            return stray;
        }
        if (store) /* the caller writes it now */
            a->mark(addr - a->base, size, ORIGIN_KERNEL);
        else if ((d.checks & PTX_CHECK_UNINIT) && a->origin[(addr - a->base) / 4] == ORIGIN_NONE)
            uninit(in, t, addr, size, false);
        if (!store || in_atomic)
            a->mark_read(addr - a->base, size);
        return a->bytes.data() + (addr - a->base);
    }
    case Space::Shared:
        if (addr > shared.size() || size > shared.size() - addr) {
            finding(PTX_FIND_SHARED_OOB, t, in, addr, size, store);
            return nullptr;
        }
        if (!shadow.empty() && !in_atomic)
            race_check(in, t, addr, size, store);
        if (!written.empty()) {
            if (store || in_atomic)
                memset(written.data() + addr / 4, 1, (addr + size - 1) / 4 - addr / 4 + 1);
            else if (!written[addr / 4])
                uninit(in, t, addr, size, true);
        }
        return shared.data() + addr;
    case Space::Local:
        if (addr > fn.local_bytes || size > fn.local_bytes - addr) {
            finding(PTX_FIND_LOCAL_OOB, t, in, addr, size, store);
            return nullptr;
        }
        return local.data() + (size_t)t * fn.local_bytes + addr;
    case Space::Const: { /* a module's .const variables lie in device memory, read-only */
        uint8_t *p = store ? nullptr : d.global(addr, size);
        if (!p)
            finding(PTX_FIND_GLOBAL_OOB, t, in, addr, size, store);
        return p;
    }
    case Space::Param:
        if (store || addr > params.size() || size > params.size() - addr) {
            finding(PTX_FIND_GLOBAL_OOB, t, in, addr, size, store);
            return nullptr;
        }
        return const_cast<uint8_t *>(params.data()) + addr;
    default:
        finding(PTX_FIND_GLOBAL_OOB, t, in, addr, size, store);
        return nullptr;
    }
}

/* The race check: for each shared word, who wrote it and who read it
 * since the block's last barrier. A read of a word another thread wrote, a
 * write of a word another thread wrote or read: a race (one finding a
 * word and barrier interval). Atomics do not race. */
void Block::race_check(const Insn &in, int t, uint64_t addr, uint32_t size, int store)
{
    for (uint64_t w = addr / 4; w <= (addr + size - 1) / 4; w++) {
        Shadow &s = shadow[w];
        if (s.epoch != epoch)
            s = Shadow{-1, -1, -1, false, epoch};
        int other = -1;
        if (s.writer >= 0 && s.writer != t)
            other = s.writer; /* read after write, or write after write */
        else if (store && s.reader >= 0)
            other = s.reader != t ? s.reader : s.reader2; /* write after another's read */
        if (other >= 0 && !s.reported) {
            s.reported = true;
            finding(PTX_FIND_RACE, t, in, addr, size, store);
            if (result.nfindings <= sizeof result.findings / sizeof *result.findings)
                result.findings[result.nfindings - 1].other = thread_of(other);
        }
        if (store)
            s.writer = t;
        else if (s.reader < 0)
            s.reader = t;
        else if (s.reader != t && s.reader2 < 0)
            s.reader2 = t;
    }
}

/* ---- one instruction ------------------------------------------------------------- */

void Block::alu(const Insn &in, int t)
{
    const Operand *o = in.ops;
    uint64_t a = in.nops > 1 ? value(o[1], t) : 0, b = in.nops > 2 ? value(o[2], t) : 0;
    uint64_t c = in.nops > 3 ? value(o[3], t) : 0;
    if (in.op >= Op::Popc && in.op <= Op::Bfind) { /* bits: popc, clz, brev, bfe, bfi, shf, prmt, sad, bfind */
        reg(o[0].reg, t) = bit_op(in, a, b, c, in.nops > 4 ? value(o[4], t) : 0);
        return;
    }
    uint64_t &dst = reg(o[0].reg, t);
    switch (in.op) {
    case Op::Mov: dst = in.type.kind == Kind::Pred ? a & 1 : a & mask_of(in.type.bits); return;
    case Op::Cvt: dst = convert(a, in.type, in.type2, in.mods); return;
    case Op::Cvta: {
        uint64_t window = in.space == Space::Shared ? SHARED_WINDOW : in.space == Space::Local
                          ? LOCAL_WINDOW : 0;
        dst = (in.mods & MOD_TO ? a - window : a + window) & mask_of(in.type.bits);
        return;
    }
    case Op::Setp: {
        bool r = in.type.kind == Kind::Float
                     ? compare_float(in.cmp, in.type.bits == 64 ? f64(a) : f32(a), in.type.bits == 64 ? f64(b) : f32(b))
                     : compare_int(in.cmp, a, b, in.type.kind == Kind::Signed, in.type.bits);
        if (in.has_bool_op)
            r = in.bool_op == Op::And ? r && (c & 1) : in.bool_op == Op::Or ? r || (c & 1) : r != (c & 1);
        dst = r;
        return;
    }
    case Op::Selp: dst = (c & 1) ? a : b; return;
    default: break;
    }
    if (in.type.kind == Kind::Pred) { /* and.pred, or.pred, not.pred */
        dst = (in.op == Op::And ? a & b : in.op == Op::Or ? a | b : in.op == Op::Xor ? a ^ b : ~a) & 1;
        return;
    }
    int out_bits = in.mods & MOD_WIDE ? 2 * in.type.bits : in.type.bits;
    if (in.type.kind == Kind::Float)
        dst = float_result(in, a, b, c);
    else
        dst = int_op(in, a, b, c) & mask_of(out_bits > 64 ? 64 : out_bits);
}

/* The lanes of `lanes` whose guard holds. */
void Block::general(const Insn &in, int base, uint32_t on, uint32_t at)
{
    switch (in.op) {
    case Op::Ld:
    case Op::St: memory(in, base, on); return;
    case Op::Atom:
    case Op::Red: atomic(in, base, on); return;
    case Op::Shfl: shuffle(in, base, on); return;
    case Op::Vote: vote(in, base, on); return;
    case Op::Activemask:
        for (uint32_t m = on; m; m &= m - 1)
            reg(in.ops[0].reg, base + __builtin_ctz(m)) = at;
        return;
    case Op::CpAsync: copy_async(in, base, on); return;
    case Op::Call: print(in, base, on); return;
    case Op::Nop: return;
    default:
        for (uint32_t m = on; m; m &= m - 1)
            alu(in, base + __builtin_ctz(m));
        return;
    }
}

/* The space an access of in goes to: a symbol's own when in names none. */
static Insn spaced(const Insn &in, const Operand &addr_op)
{
    Insn s = in;
    if (addr_op.reg < 0 && addr_op.sym_space != Space::Generic && in.space == Space::Generic)
        s.space = addr_op.sym_space;
    return s;
}

namespace {

/* The distinct keys of one warp access (at most WARP * 4: sectors of up
 * to 16-byte accesses): a small open-addressed set, O(1) a lane where a
 * scan of what came before was O(lanes) (an uncoalesced warp access has 32
 * distinct sectors). */
struct KeySet {
    static constexpr int SLOTS = 256; /* a power of two, above WARP * 4 */
    uint64_t slot[SLOTS];
    bool used[SLOTS] = {};
    int n = 0;
    bool add(uint64_t k) /* true when k is new */
    {
        uint32_t h = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 56);
        for (;; h = (h + 1) & (SLOTS - 1)) {
            if (!used[h]) {
                used[h] = true, slot[h] = k, n++;
                return true;
            }
            if (slot[h] == k)
                return false;
        }
    }
};

} // namespace

/* The traffic of one warp access (PTX_CHECK_TRAFFIC): the distinct
 * 32-byte sectors its lanes' global addresses touch, or the wavefronts its
 * shared addresses need (the most distinct words asked of one bank). */
void Block::count_traffic(Space space, bool store, const uint64_t *addr, uint32_t on, uint32_t size)
{
    KeySet keys;
    uint64_t lanes = (uint64_t)__builtin_popcount(on);
    ptx_traffic_t &tr = result.traffic;
    if (space == Space::Global) {
        for (uint32_t m = on; sampled && m; m &= m - 1) { /* sectors: of the sampled blocks */
            uint64_t a = addr[__builtin_ctz(m)];
            for (uint64_t s = a / 32; s <= (a + size - 1) / 32 && keys.n < WARP * 4; s++)
                keys.add(s);
        }
        (store ? tr.global_store_bytes : tr.global_load_bytes) += lanes * size;
        (store ? tr.global_store_sectors : tr.global_load_sectors) += (uint64_t)keys.n;
    } else if (space == Space::Shared && !sampled) {
        if (!store)
            tr.shared_loads += lanes, tr.shared_load_bytes += lanes * size;
    } else if (space == Space::Shared) {
        int per_bank[WARP] = {0};
        for (uint32_t m = on; m; m &= m - 1) {
            uint64_t word = addr[__builtin_ctz(m)] / 4;
            if (keys.add(word))
                per_bank[word % WARP]++;
        }
        int most = 0;
        for (int b = 0; b < WARP; b++)
            most = per_bank[b] > most ? per_bank[b] : most;
        tr.shared_requests++;
        tr.shared_wavefronts += (uint64_t)(most ? most : 1);
        if (!store)
            tr.shared_loads += lanes, tr.shared_load_bytes += lanes * size;
    }
}

/* The elem bytes at p as an unsigned value, read whole: a copy into the
 * low bytes of a zeroed 8-byte value, read back at once, stalled the load
 * (the store could not be forwarded), half of a checked launch's time. */
static inline uint64_t bits_at(const uint8_t *p, uint32_t elem)
{
    switch (elem) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v = 0; memcpy(&v, p, elem < 8 ? elem : 8); return v; }
    }
}

/* ld and st, of one value or a vector of them (.v2, .v4: one access of
 * their whole size, aligned to it, as on a GPU). */
void Block::memory(const Insn &in, int base, uint32_t on)
{
    bool store = in.op == Op::St;
    const Operand &addr_op = in.ops[store ? 0 : 1], &data = in.ops[store ? 1 : 0];
    uint32_t elem = in.type.bits / 8, size = elem * in.vec;
    Insn sp = spaced(in, addr_op);
    if ((d.checks & PTX_CHECK_TRAFFIC) && (sp.space == Space::Global || sp.space == Space::Shared)) {
        uint64_t addr[WARP] = {0};
        for (uint32_t m = on; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            addr[l] = space_address(sp.space, addr_op.reg >= 0 ? reg(addr_op.reg, base + l) : 0, addr_op.imm);
        }
        count_traffic(sp.space, store, addr, on, size);
    }
    if ((d.checks & PTX_CHECK_TRAFFIC) && sp.space == Space::Const && !store) /* the fast paths take none */
        result.traffic.const_loads += (uint64_t)__builtin_popcount(on);
    for (uint32_t m = on; m; m &= m - 1) {
        int t = base + __builtin_ctz(m);
        uint64_t addr = space_address(sp.space, addr_op.reg >= 0 ? reg(addr_op.reg, t) : 0, addr_op.imm);
        uint8_t *p = access(sp, t, addr, size, store);
        for (int e = 0; e < in.vec; e++) {
            int r = data.kind == Operand::Vec ? data.vec[e] : data.reg;
            if (store) {
                uint64_t v = data.kind == Operand::Vec ? (r >= 0 ? reg(r, t) : 0) : value(data, t);
                if (p)
                    memcpy(p + e * elem, &v, elem); /* little-endian: the low bytes */
            } else {
                uint64_t v = p ? bits_at(p + e * elem, elem) : 0;
                if (in.type.kind == Kind::Signed)
                    v = (uint64_t)as_signed(v, in.type.bits);
                if (r >= 0)
                    reg(r, t) = v;
            }
        }
    }
}

/* atom (the old value into d) and red: lane after lane, each whole, as a
 * GPU's atomics are in some order. */
void Block::atomic(const Insn &in, int base, uint32_t on)
{
    in_atomic = true;
    struct Clear {
        bool &flag;
        ~Clear() { flag = false; }
    } clear{in_atomic};
    bool is_red = in.op == Op::Red;
    const Operand &addr_op = in.ops[is_red ? 0 : 1];
    const Operand &b_op = in.ops[is_red ? 1 : 2];
    uint32_t size = in.type.bits / 8;
    Insn sp = spaced(in, addr_op);
    if (d.checks & PTX_CHECK_TRAFFIC) /* the fast paths take none */
        (sp.space == Space::Shared ? result.traffic.shared_atomics : result.traffic.global_atomics) +=
            (uint64_t)__builtin_popcount(on);
    for (uint32_t m = on; m; m &= m - 1) {
        int t = base + __builtin_ctz(m);
        uint64_t addr = space_address(sp.space, addr_op.reg >= 0 ? reg(addr_op.reg, t) : 0, addr_op.imm);
        uint8_t *p = access(sp, t, addr, size, 1);
        uint64_t old = 0, b = value(b_op, t), c = in.nops > 3 ? value(in.ops[3], t) : 0, v;
        if (p)
            memcpy(&old, p, size);
        v = atomic_result((AtomOp)in.sub, in.type, old, b, c);
        if (p)
            memcpy(p, &v, size);
        if (!is_red)
            reg(in.ops[0].reg, t) = old;
    }
}

/* shfl.sync: every lane of `on` reads a from the lane the mode names
 * (PTX's rules for the clamp and the segment mask in c); a lane outside
 * the range reads its own, and d|p's p says which. */
void Block::shuffle(const Insn &in, int base, uint32_t on)
{
    uint64_t a[WARP];
    for (int l = 0; l < WARP && base + l < nthreads; l++)
        a[l] = value(in.ops[1], base + l);
    for (uint32_t m = on; m; m &= m - 1) {
        int l = __builtin_ctz(m), t = base + l;
        uint32_t b = (uint32_t)value(in.ops[2], t) & 31, c = (uint32_t)value(in.ops[3], t);
        uint32_t seg = (c >> 8) & 31, clamp = c & 31;
        int max_lane = (int)((l & seg) | (clamp & ~seg)), min_lane = (int)(l & seg), j = l;
        bool ok = false;
        switch ((ShflMode)in.sub) {
        case ShflMode::Up: j = l - (int)b, ok = j >= max_lane; break;
        case ShflMode::Down: j = l + (int)b, ok = j <= max_lane; break;
        case ShflMode::Bfly: j = l ^ (int)b, ok = j <= max_lane; break;
        case ShflMode::Idx: j = min_lane | (int)(b & ~seg), ok = j <= max_lane; break;
        }
        if (!ok || base + j >= nthreads)
            j = l, ok = false;
        reg(in.ops[0].reg, t) = a[j] & mask_of(32);
        if (in.pred_dst >= 0)
            reg(in.pred_dst, t) = ok;
    }
}

/* cp.async.{ca,cg}.shared.global [dst], [src], n{, src_n}: n bytes into
 * shared memory, the first src_n (default n) from global, the rest zero. */
void Block::copy_async(const Insn &in, int base, uint32_t on)
{
    Insn to = in, from = in;
    to.space = Space::Shared, from.space = Space::Global;
    for (uint32_t m = on; m; m &= m - 1) {
        int t = base + __builtin_ctz(m);
        const Operand &d = in.ops[0], &s = in.ops[1];
        uint64_t dst = space_address(Space::Shared, d.reg >= 0 ? reg(d.reg, t) : 0, d.imm);
        uint64_t src = (s.reg >= 0 ? reg(s.reg, t) : 0) + (uint64_t)s.imm;
        uint32_t n = (uint32_t)value(in.ops[2], t);
        uint32_t src_n = in.nops > 3 ? (uint32_t)value(in.ops[3], t) : n;
        if ((n != 4 && n != 8 && n != 16) || src_n > n) {
            finding(PTX_FIND_MISALIGNED, t, in, dst, n, 1);
            continue;
        }
        uint8_t *q = access(to, t, dst, n, 1), *p = src_n ? access(from, t, src, src_n, 0) : nullptr;
        if (!q)
            continue;
        memset(q, 0, n);
        if (p)
            memcpy(q, p, src_n);
    }
}

/* call vprintf: each lane's line, lane after lane, kept by the device (its
 * first PRINTED_MAX lines) for the report; its return value, the
 * conversions printed. */
void Block::print(const Insn &in, int base, uint32_t on)
{
    constexpr size_t PRINTED_MAX = 1000;
    Insn generic = in;
    generic.space = Space::Generic;
    Insn local = in;
    local.space = Space::Local;
    for (uint32_t m = on; m; m &= m - 1) {
        int t = base + __builtin_ctz(m);
        uint64_t fmt = 0, args = 0;
        uint8_t *p = access(local, t, (uint64_t)in.ops[1].imm, 8, 0), *q = access(local, t, (uint64_t)in.ops[2].imm, 8, 0);
        if (!p || !q)
            continue;
        memcpy(&fmt, p, 8), memcpy(&args, q, 8);
        DeviceReader read = [&](uint64_t addr, void *out, size_t n) {
            uint8_t *src = access(generic, t, addr, (uint32_t)n, 0);
            if (src)
                memcpy(out, src, n);
            return src != nullptr;
        };
        int nargs = 0;
        std::string line = format_printf(read, fmt, args, nargs);
        if (d.printed.size() < PRINTED_MAX)
            d.printed.push_back(line);
        d.printed_total++;
        if (uint8_t *r = access(local, t, (uint64_t)in.ops[0].imm, 4, 1))
            memcpy(r, &nargs, 4);
    }
}

/* vote.sync over the lanes of `on`: all, any, uni (a predicate each), ballot
 * (the mask of those whose predicate holds). */
void Block::vote(const Insn &in, int base, uint32_t on)
{
    uint32_t yes = 0;
    for (uint32_t m = on; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (value(in.ops[1], base + l) & 1)
            yes |= 1u << l;
    }
    uint64_t r;
    switch ((VoteMode)in.sub) {
    case VoteMode::All: r = yes == on; break;
    case VoteMode::Any: r = yes != 0; break;
    case VoteMode::Uni: r = yes == 0 || yes == on; break;
    default: r = yes; break;
    }
    for (uint32_t m = on; m; m &= m - 1)
        reg(in.ops[0].reg, base + __builtin_ctz(m)) = r;
}

/* One instruction of warp wi: false when the warp cannot go on (every lane
 * exited or waiting at a barrier). */
} // namespace ptx

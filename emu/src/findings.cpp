/* findings.cpp - what the checkers found during a launch, collected and
 * reported once per distinct (kind, pc, other pc) with how often it
 * happened.
 *
 * A checker first asks finding_repeat() (a hash lookup that counts the
 * repeat) and formats a message only for a new finding. The message holds
 * placeholders for the file:line of its pcs; at the end of the launch all
 * pcs to be shown are symbolised with one addr2line run and the findings go
 * through diag_report, whose per-kind limit ("N more ... not shown") holds.
 * An access that may crash the process (invalid-address) is reported at
 * once instead. If the process dies mid-launch anyway, the fatal-signal
 * handler calls findings_flush_on_crash, which writes what is collected
 * with raw addresses where the line is not known. */
#include <cstdarg>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "check_internal.h"

namespace cugrade::emu {
namespace {

constexpr size_t kMaxFindings = 4096;

struct finding {
    diag_kind kind;
    uintptr_t pc[2];
    unsigned long long count;
    std::string text; /* with CUGRADE_LOC0/1 placeholders */
    bool reported;
};

struct finding_key {
    diag_kind kind;
    uintptr_t pc0, pc1;
    bool operator==(const finding_key &o) const { return kind == o.kind && pc0 == o.pc0 && pc1 == o.pc1; }
};
struct key_hash {
    size_t operator()(const finding_key &k) const
    {
        return size_t((k.pc0 * 0x9E3779B97F4A7C15ull) ^ (k.pc1 * 0xC2B2AE3D27D4EB4Full) ^ uint64_t(k.kind));
    }
};

std::vector<finding> g_findings;
std::unordered_map<finding_key, size_t, key_hash> g_index;
unsigned long long g_dropped; /* beyond kMaxFindings */

/* The message with its placeholders replaced by loc0 and loc1 and, when it
 * happened more than once, the count; into out (no allocation: the crash
 * path uses it too). */
void compose(char *out, size_t len, const std::string &text, const char *loc0, const char *loc1,
             unsigned long long count)
{
    size_t n = 0;
    for (char ch : text) {
        const char *piece = ch == CUGRADE_LOC0[0] ? loc0 : ch == CUGRADE_LOC1[0] ? loc1 : nullptr;
        for (const char *p = piece; p && *p && n + 1 < len; p++)
            out[n++] = *p;
        if (!piece && n + 1 < len)
            out[n++] = ch;
    }
    out[n] = '\0';
    if (count > 1)
        snprintf(out + n, len - n, " (%llu times in this launch)", count);
}

/* Severity of each kind: every checker finding is an error except a
 * barrier mismatch, which stays a warning. */
severity severity_of(diag_kind kind) { return kind == diag_kind::barrier_mismatch ? severity::warning : severity::error; }

void report(finding &f)
{
    char message[1024];
    compose(message, sizeof message, f.text, symbolize(f.pc[0]), f.pc[1] ? symbolize(f.pc[1]) : "", f.count);
    diag_report(severity_of(f.kind), f.kind, "%s", message);
    f.reported = true;
}

finding *add(diag_kind kind, uintptr_t pc0, uintptr_t pc1, const char *fmt, va_list ap)
{
    if (g_findings.size() >= kMaxFindings) {
        g_dropped++;
        return nullptr;
    }
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    g_index.emplace(finding_key{kind, pc0, pc1}, g_findings.size());
    g_findings.push_back(finding{kind, {pc0, pc1}, 1, text, false});
    return &g_findings.back();
}

/* The pcs of the findings that diag_report will show, at most kDiagPerKind
 * per kind (those over the limit are only counted). */
std::vector<uintptr_t> pcs_to_show()
{
    unsigned shown[size_t(diag_kind::count)] = {};
    std::vector<uintptr_t> pcs;
    for (const finding &f : g_findings) {
        unsigned &n = shown[size_t(f.kind)];
        if (f.reported || diag_launch_count(f.kind) + n++ >= unsigned(kDiagPerKind))
            continue;
        pcs.push_back(f.pc[0]);
        if (f.pc[1])
            pcs.push_back(f.pc[1]);
    }
    return pcs;
}

const char *raw_location(uintptr_t pc, char *buf, size_t len)
{
    const char *known = symbolize_cached(pc);
    if (known)
        return known;
    format_raw_pc(pc, buf, len);
    return buf;
}

} // namespace

bool finding_repeat(diag_kind kind, uintptr_t pc0, uintptr_t pc1, unsigned long long times)
{
    auto it = g_index.find(finding_key{kind, pc0, pc1});
    if (it != g_index.end()) {
        g_findings[it->second].count += times;
        return true;
    }
    if (g_findings.size() < kMaxFindings)
        return false;
    g_dropped++; /* no room: treated as a repeat, so nobody formats it */
    return true;
}

void finding_add(diag_kind kind, uintptr_t pc0, uintptr_t pc1, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(kind, pc0, pc1, fmt, ap);
    va_end(ap);
}

void finding_add_now(diag_kind kind, uintptr_t pc0, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    finding *f = add(kind, pc0, 0, fmt, ap);
    va_end(ap);
    if (!f)
        return;
    if (diag_launch_count(kind) < unsigned(kDiagPerKind))
        symbolize_batch({pc0});
    report(*f); /* its repeats are counted but not reported again */
}

void findings_launch_begin()
{
    g_findings.clear();
    g_index.clear();
    g_dropped = 0;
}

void findings_launch_end()
{
    symbolize_batch(pcs_to_show());
    for (finding &f : g_findings)
        if (!f.reported)
            report(f);
    g_findings.clear();
    g_index.clear();
}

void findings_flush_on_crash()
{
    unsigned written[size_t(diag_kind::count)] = {};
    for (finding &f : g_findings) {
        if (f.reported || written[size_t(f.kind)]++ >= unsigned(kDiagPerKind))
            continue;
        char raw0[64], raw1[64], message[1024];
        compose(message, sizeof message, f.text, raw_location(f.pc[0], raw0, sizeof raw0),
                raw_location(f.pc[1], raw1, sizeof raw1), f.count);
        diag_emit(severity_of(f.kind), f.kind, message);
        f.reported = true;
    }
}

} // namespace cugrade::emu

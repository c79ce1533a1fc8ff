/* ptx_printf.cpp - a kernel's printf (ptx_printf.h). */
#include "ptx_printf.h"

#include <cstdio>
#include <cstring>

namespace ptx {

static std::string read_string(const DeviceReader &read, uint64_t addr, size_t max)
{
    std::string s;
    for (char c; s.size() < max && read(addr + s.size(), &c, 1) && c;)
        s.push_back(c);
    return s;
}

std::string format_printf(const DeviceReader &read, uint64_t fmt_addr, uint64_t args, int &nargs)
{
    const size_t cap = 4096;
    std::string fmt = read_string(read, fmt_addr, cap), out;
    uint64_t at = 0; /* the next argument's offset in the buffer */
    nargs = 0;
    auto take = [&](void *v, size_t size) {
        at = (at + size - 1) / size * size;
        bool ok = read(args + at, v, size);
        at += size;
        return ok;
    };
    for (size_t i = 0; i < fmt.size() && out.size() < cap; i++) {
        if (fmt[i] != '%') {
            out.push_back(fmt[i]);
            continue;
        }
        size_t j = i + 1;
        std::string spec = "%";
        while (j < fmt.size() && strchr("-+ #0", fmt[j]))
            spec.push_back(fmt[j++]);
        while (j < fmt.size() && spec.size() < 12 && fmt[j] >= '0' && fmt[j] <= '9')
            spec.push_back(fmt[j++]);
        if (j < fmt.size() && fmt[j] == '.') {
            spec.push_back(fmt[j++]);
            while (j < fmt.size() && spec.size() < 20 && fmt[j] >= '0' && fmt[j] <= '9')
                spec.push_back(fmt[j++]);
        }
        int longs = 0;
        while (j < fmt.size() && strchr("hlLqjzt", fmt[j]))
            longs += fmt[j] == 'l' || fmt[j] == 'L' || fmt[j] == 'q' || fmt[j] == 'j' || fmt[j] == 'z' ||
                     fmt[j] == 't',
                j++;
        char conv = j < fmt.size() ? fmt[j] : '\0';
        char buf[512];
        buf[0] = '\0';
        if (conv == '%') {
            snprintf(buf, sizeof buf, "%%");
        } else if (conv && strchr("diouxXc", conv)) {
            if (longs) {
                long long v = 0;
                take(&v, 8);
                snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), v);
            } else {
                int v = 0;
                take(&v, 4);
                snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
            }
            nargs++;
        } else if (conv && strchr("feEgGaAF", conv)) {
            double v = 0;
            take(&v, 8);
            snprintf(buf, sizeof buf, (spec + conv).c_str(), v);
            nargs++;
        } else if (conv == 's') {
            uint64_t p = 0;
            take(&p, 8);
            std::string str = p ? read_string(read, p, cap) : "(null)";
            snprintf(buf, sizeof buf, (spec + "s").c_str(), str.c_str());
            nargs++;
        } else if (conv == 'p') {
            uint64_t p = 0;
            take(&p, 8);
            snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)p);
            nargs++;
        } else if (conv == 'n') { /* never written through: printed as it stands, its pointer skipped */
            uint64_t p = 0;
            take(&p, 8);
            out += "%n";
            i = j;
            continue;
        } else { /* the unknown: as it stands */
            out += fmt.substr(i, j - i + (conv ? 1 : 0));
            i = conv ? j : j - 1;
            continue;
        }
        out += buf;
        i = j;
    }
    if (out.size() > cap)
        out.resize(cap);
    return out;
}

} // namespace ptx

#!/usr/bin/env bash
# tools/syscalls_used.sh - the system calls that sandboxed code makes and the
# ones the jail's seccomp filter refused (grader/jail/policy.c), read off a
# real grading under strace: how the allow-lists were made, and how to check
# them on a new machine, driver or toolkit (docs/security.md).
#
#   tools/syscalls_used.sh OUT CUGRADE-ARGS...
#
# runs `bin/cugrade CUGRADE-ARGS...` under `strace -f`, keeps the trace in
# OUT/trace, and prints two tables: the calls that failed with EPERM in a
# process that had run bin/cugrade-jail (refused by the filter, or by the
# kernel to the sandbox's uid), and every call such a process made, each
# with the programs that made it. Exit status: cugrade's (2 if strace or
# cugrade could not start).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out=${1:?usage: tools/syscalls_used.sh OUT CUGRADE-ARGS...}
shift
command -v strace >/dev/null || { echo "tools/syscalls_used.sh: strace not found" >&2; exit 2; }
mkdir -p "$out" && rm -f "$out/refused" "$out/used" || exit 2
strace -f -qq --pidns-translation -s 120 -o "$out/trace" bin/cugrade "$@" >"$out/cugrade.log" 2>&1
rc=$?
echo "bin/cugrade $* exited $rc (its output: $out/cugrade.log)"
# A pid is jailed once it has run bin/cugrade-jail, and so is every child it
# makes after; its program is its last execve's.
awk -v refused="$out/refused" -v used="$out/used" '
    function returned(line,    t) {
        if (match(line, /\/\* [0-9]+ in strace.s PID NS \*\/$/)) {
            t = substr(line, RSTART + 3); sub(/ .*/, "", t); return t
        }
        if (match(line, /= [0-9]+$/)) return substr(line, RSTART + 2)
        return ""
    }
    function is_clone(    r) {
        r = $2 == "<..."
        return r ? $3 ~ /^(clone|clone3|fork|vfork)$/ : $2 ~ /^(clone|clone3|fork|vfork)\(/
    }
    # first pass: who made whom (and at which line), and where each ran the jail
    NR == FNR {
        if (index($0, "execve(\"") && $0 ~ /= 0$/) {
            split($0, q, "\"")
            if (q[2] ~ /cugrade-jail$/) jail_at[$1] = FNR
        }
        if (is_clone() && returned($0) != "") {
            parent[returned($0)] = $1
            born_at[returned($0)] = FNR
        }
        next
    }
    # the line from which pid is in a jail: where it ran the jail, or its
    # start if its parent was in one when it made it (-1: never)
    function jailed_from(pid,    p) {
        if (pid in from) return from[pid]
        from[pid] = -1
        if (pid in jail_at) from[pid] = jail_at[pid]
        else if (pid in parent) {
            p = jailed_from(parent[pid])
            if (p >= 0 && p < born_at[pid]) from[pid] = 0
        }
        return from[pid]
    }
    # second pass: the calls of each process in a jail, under the name of its program
    {
        pid = $1
        if (index($0, "execve(\"") && $0 ~ /= 0$/) { split($0, q, "\""); name[pid] = q[2] }
        if (!(pid in name) && (pid in parent)) name[pid] = name[parent[pid]]
        f = jailed_from(pid)
        if (f < 0 || FNR <= f || name[pid] == "" || name[pid] ~ /(cugrade-jail|bwrap|\/cugrade)$/) next
        call = $2 == "<..." ? $3 : $2; sub(/\(.*/, "", call)
        if (call ~ /^[a-z_0-9]+$/) {
            seen[call] = seen[call] " " name[pid]
            if ($0 ~ /= -1 EPERM/) bad[call] = bad[call] " " name[pid]
        }
    }
    function programs(list,    n, a, i, out, k, have) {
        n = split(list, a, " "); out = ""
        for (i = 1; i <= n; i++) {
            k = a[i]; sub(/.*\//, "", k)
            if (!(k in have)) { have[k] = 1; out = out (out ? ", " : "") k }
        }
        return out
    }
    END {
        for (c in bad) print c "\t" programs(bad[c]) > refused
        for (c in seen) print c "\t" programs(seen[c]) > used
    }' "$out/trace" "$out/trace"
touch "$out/refused" "$out/used"
echo "== calls refused (EPERM) in the sandbox: $(wc -l <"$out/refused")"
sort "$out/refused"
echo "== calls made in the sandbox: $(wc -l <"$out/used")"
sort "$out/used" | cut -c1-150
exit "$rc"

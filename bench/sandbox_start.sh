#!/usr/bin/env bash
# sandbox_start.sh - what starting a sandbox costs when many start at once:
# K processes together, each starting M sandboxed /bin/true one after another,
# with the namespaces and mounts of a cugrade child's sandbox
# (grader/run/sandbox.c), then the same less one piece at a time (the network
# namespace, the fresh /proc and /dev), and a plain fork and exec to compare.
# A batch whose CPU-only phases (the emulator's checks) slow down as workers
# are added, its cores idle, shows here whether the kernel's namespace locks
# are what they wait for.
# Usage: bench/sandbox_start.sh [K [M]]   (default: 16 8, then 64 8 when the
#        machine has 64 cores or more)
# Exit 0 when every start succeeded; 1 when one failed (its error printed);
# 2 when bwrap is missing or an argument is bad.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
need_tool bwrap "bench/sandbox_start.sh times it (apt install bubblewrap)"
if [ $# -gt 0 ]; then
    is_count "$1" || bench_cannot_start "K must be a whole number >= 1, not '$1'"
    sizes=("$1")
else
    sizes=(16)
    [ "$(nproc)" -lt 64 ] || sizes+=(64)
fi
m=${2:-8}
is_count "$m" || bench_cannot_start "M must be a whole number >= 1, not '$m'"
bench_scratch sandbox_start

# the system directories as the sandbox mounts them: a symlink (merged /usr)
# recreated as one, a directory bound read-only
system=()
for d in /usr /bin /sbin /lib /lib32 /lib64 /libx32 /etc; do
    if [ -L "$d" ]; then
        system+=(--symlink "$(readlink "$d")" "$d")
    elif [ -d "$d" ]; then
        system+=(--ro-bind "$d" "$d")
    fi
done
full=(--unshare-pid --unshare-net --unshare-ipc --unshare-uts --die-with-parent --new-session
    --dev /dev --proc /proc --tmpfs /tmp "${system[@]}")
no_net=(--unshare-pid --unshare-ipc --unshare-uts --die-with-parent --new-session
    --dev /dev --proc /proc --tmpfs /tmp "${system[@]}")
no_proc_dev=(--unshare-pid --unshare-net --unshare-ipc --unshare-uts --die-with-parent
    --new-session --tmpfs /tmp "${system[@]}")

# starts VARIANT: one worker's M starts in a row
starts() {
    local i
    for ((i = 0; i < m; i++)); do
        case $1 in
        plain) /bin/true ;;
        full) bwrap "${full[@]}" -- /bin/true ;;
        no_net) bwrap "${no_net[@]}" -- /bin/true ;;
        no_proc_dev) bwrap "${no_proc_dev[@]}" -- /bin/true ;;
        esac
    done
}

now() { date +%s.%N; }

# together K VARIANT LABEL: K workers at once; prints starts a second and the
# mean time of one start
together() {
    local k=$1 variant=$2 label=$3 t0 t1 w
    t0=$(now)
    for ((w = 0; w < k; w++)); do
        starts "$variant" 2>"$tmp/err.$w" &
    done
    wait_all "$label, $k at once"
    t1=$(now)
    awk -v k="$k" -v m="$m" -v a="$t0" -v b="$t1" -v l="$label" 'BEGIN {
        s = b - a
        printf "%-40s %3d at once: %5d starts in %6.2f s = %7.1f a second; one start %7.1f ms\n",
               l, k, k * m, s, k * m / s, s / m * 1000 }'
}

echo "machine: $(nproc) cores; $(uname -r)"
for k in "${sizes[@]}"; do
    together "$k" plain "fork and exec /bin/true"
    together "$k" full "bwrap as a cugrade sandbox"
    together "$k" no_net "  less the network namespace"
    together "$k" no_proc_dev "  less the fresh /proc and /dev"
done

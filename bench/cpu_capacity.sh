#!/usr/bin/env bash
# cpu_capacity.sh - how much work the machine's cores do together: K
# single-threaded, CPU-bound processes (an awk loop, no memory or system
# calls to speak of), each pinned to its own core of this process's
# affinity, started at once, for each K given; prints each K's work against
# one process alone. A virtual machine whose cores are hyperthreads or shared
# with other guests shows it here (64 at once doing 40x one, not 64x), which
# caps what more workers, or more GPUs, can add to a batch.
# Usage: bench/cpu_capacity.sh K...   (e.g. 16 32 64)
# Exit 0 when every process ran; 1 when one failed; 2 when taskset is
# missing, or K is more cores than this process may use.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || bench_cannot_start "usage: bench/cpu_capacity.sh K... (e.g. 16 32 64)"
need_tool taskset "bench/cpu_capacity.sh pins each process to a core with it (util-linux)"
mapfile -t cores < <(allowed_cores)
for k in "$@"; do
    is_count "$k" || bench_cannot_start "K must be a whole number >= 1, not '$k'"
    [ "$k" -le ${#cores[@]} ] || bench_cannot_start "$k processes need $k cores, this process may use ${#cores[@]}"
done
bench_scratch cpu_capacity
loops=${BENCH_CPU_LOOPS:-20000000}
[[ $loops =~ ^[1-9][0-9]{0,11}$ ]] || bench_cannot_start "BENCH_CPU_LOOPS must be a whole number >= 1"

# together K: K processes, one on each of the first K cores; prints the wall time
together() {
    local k=$1 i t0 t1
    t0=$(date +%s.%N)
    for ((i = 0; i < k; i++)); do
        taskset -c "${cores[$i]}" awk -v n="$loops" 'BEGIN { for (i = 0; i < n; i++) s += i % 7; if (s < 0) print s }' \
            2>"$tmp/err.$i" &
    done
    wait_all "$k at once"
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

one=$(together 1)
awk -v s="$one" 'BEGIN { if (!(s > 0)) exit 1 }' || bench_fail "one process took no measurable time"
echo "one process alone: $one s"
for k in "$@"; do
    secs=$(together "$k")
    awk -v k="$k" -v s="$secs" -v one="$one" 'BEGIN {
        printf "%3d at once: %6.3f s each round; together %5.1f times the work of one (%.0f%% of %d)\n",
               k, s, k * one / s, 100 * one / s, k }'
done

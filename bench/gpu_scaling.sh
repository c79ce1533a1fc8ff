#!/usr/bin/env bash
# gpu_scaling.sh - how `cugrade batch` scales with GPUs on one host: the same
# class (bench/batch.sh N) graded with 1, 2, 4... of the host's GPUs visible
# (CUDA_VISIBLE_DEVICES) and 16 cores for each (taskset; BENCH_CORES_PER_GPU),
# so each run is the issue's "16-core box per GPU" and the host's own cores
# cannot flatter the 1-GPU figure or starve the 4-GPU one. First it measures
# what each run's cores do together (bench/cpu_capacity.sh) and grades a
# warm-up batch of one (so the first run does not pay alone for the caches
# every later run finds). Prints one line per run and a table of the rates,
# their ratio to the first run, and the cores' work against the first run's.
# Usage: bench/gpu_scaling.sh N GPUS... [-- BATCH OPTIONS...]
#        (e.g. bench/gpu_scaling.sh 500 4 2 1; ... 500 1 -- --jobs 24)
# BENCH_DEADLINE_S applies to each run (a partial rate is said as such and
# fails the bench, as in bench/batch.sh).
#
# Exit 0 only when every run passed bench/batch.sh (every verdict as
# expected, the full class graded) and its batch said it used the GPUs asked
# for; 1 when a run failed or was partial (its rate is still printed, marked);
# 2 when the host lacks the GPUs or cores asked for, or a tool.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
usage="usage: bench/gpu_scaling.sh N GPUS... [-- BATCH OPTIONS...] (e.g. 500 4 2 1)"
[ $# -ge 2 ] || bench_cannot_start "$usage"
n=$1
shift
is_count "$n" || bench_cannot_start "N must be a whole number >= 1, not '$n' ($usage)"
per=${BENCH_CORES_PER_GPU:-16}
is_count "$per" || bench_cannot_start "BENCH_CORES_PER_GPU must be a whole number >= 1, not '$per'"
counts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    counts+=("$1")
    shift
done
[ ${#counts[@]} -ge 1 ] || bench_cannot_start "$usage"
[ $# -eq 0 ] || shift # the options after -- go to every cugrade batch
need_tool taskset "bench/gpu_scaling.sh pins each run's cores with it (util-linux)"
need_tool nvidia-smi "bench/gpu_scaling.sh counts the host's GPUs with it"

host_gpus
mapfile -t cores < <(allowed_cores)
for k in "${counts[@]}"; do
    is_count "$k" || bench_cannot_start "a GPU count must be a whole number >= 1, not '$k' ($usage)"
    [ "$k" -le "$have_gpus" ] || bench_cannot_start "$k GPUs asked for, the host has $have_gpus"
    [ $((k * per)) -le ${#cores[@]} ] ||
        bench_cannot_start "$k GPUs need $((k * per)) cores, this process may use ${#cores[@]}"
done

# first_cores K: the first K of this process's cores, comma-separated (taskset -c).
first_cores() { printf '%s\n' "${cores[@]:0:$1}" | paste -sd,; }

bench_scratch gpu_scaling
failed=0
: >"$tmp/table"

# What each run's cores can do together (bench/cpu_capacity.sh): a virtual
# machine's 64 cores may do less than 4 times what 16 do, which caps the
# ratio before any GPU is counted.
sizes=()
for k in "${counts[@]}"; do sizes+=("$((k * per))"); done
"$bench_root/bench/cpu_capacity.sh" "${sizes[@]}" >"$tmp/cpu.log" 2>&1 ||
    bench_fail "bench/cpu_capacity.sh ${sizes[*]} failed" "$tmp/cpu.log"
sed 's/^/cores: /' "$tmp/cpu.log"

# A warm-up batch of one on the first run's cores and GPU 0: the canary's
# stamp and the cached lab driver and timing objects (build/), which a first
# run would otherwise pay for alone and every later run find made.
echo "== warm-up: bench/batch.sh 1 $*"
CUDA_VISIBLE_DEVICES=0 taskset -c "$(first_cores "$per")" \
    "$bench_root/bench/batch.sh" 1 "$@" >"$tmp/warm.log" 2>&1 ||
    bench_fail "the warm-up batch of one failed" "$tmp/warm.log"
for k in "${counts[@]}"; do
    gpus=$(seq -s, 0 $((k - 1)))
    list=$(first_cores $((k * per)))
    echo "== $k GPU(s) ($gpus), $((k * per)) cores: bench/batch.sh $n $*"
    rc=0
    CUDA_VISIBLE_DEVICES=$gpus taskset -c "$list" "$bench_root/bench/batch.sh" "$n" "$@" >"$tmp/run-$k.log" 2>&1 || rc=$?
    # everything bench/batch.sh printed but the batch log it quotes on a failure
    sed -n '/^ *|/!s/^/   /p' "$tmp/run-$k.log"
    rate=$(sed -n 's/^throughput: .* = \([0-9.]*\) submissions\/minute$/\1/p' "$tmp/run-$k.log")
    mark=""
    if [ -z "$rate" ]; then
        rate=$(sed -n 's/^stopped at the deadline: .* = \([0-9.]*\) a minute (partial)$/\1/p' "$tmp/run-$k.log")
        mark=" (partial)"
    fi
    if ! grep -q "^machine: .*(auto: $k CUDA devices\? found" "$tmp/run-$k.log"; then
        echo "   FAILED: cugrade info did not say it saw $k GPU(s)"
        failed=1
    fi
    if [ "$rc" -ne 0 ]; then
        echo "   FAILED: bench/batch.sh exited with status $rc"
        tail -n 20 "$tmp/run-$k.log" | sed 's/^/   | /'
        failed=1
    fi
    work=$(sed -n "s/^ *$((k * per)) at once: .* together *\([0-9.]*\) times the work of one .*/\1/p" "$tmp/cpu.log" | head -1)
    steady=$(sed -n 's/^steady throughput .*: \([0-9.]*\) submissions\/minute$/\1/p' "$tmp/run-$k.log")
    echo "$k $((k * per)) ${work:--} ${rate:--} ${steady:--} $mark" >>"$tmp/table"
done

echo "gpus  cores  cores' work  submissions/minute  vs the first run  steady  vs the first run  cores' work vs the first run's"
awk '{
    if (NR == 1) { base = $4; wbase = $3; sbase = $5 }
    ratio = ($4 != "-" && base != "-" && base > 0) ? sprintf("%.2fx", $4 / base) : "-"
    sratio = ($5 != "-" && sbase != "-" && sbase > 0) ? sprintf("%.2fx", $5 / sbase) : "-"
    wratio = ($3 != "-" && wbase != "-" && wbase > 0) ? sprintf("%.2fx", $3 / wbase) : "-"
    printf "%4d  %5d  %11s  %18s  %16s  %6s  %16s  %s%s\n", $1, $2, $3, $4, ratio, $5, sratio, wratio,
           ($6 != "" ? " " $6 " " $7 : "")
}' "$tmp/table"
[ "$failed" -eq 0 ] || bench_fail "a run did not pass (above): its rate is not a measurement of the whole class"

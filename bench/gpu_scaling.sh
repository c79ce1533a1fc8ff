#!/usr/bin/env bash
# gpu_scaling.sh - how `cugrade batch` scales with GPUs on one host: the same
# class (bench/batch.sh N) graded with 1, 2, 4... of the host's GPUs visible
# (CUDA_VISIBLE_DEVICES) and 16 cores for each (taskset; BENCH_CORES_PER_GPU),
# so each run is the issue's "16-core box per GPU" and the host's own cores
# cannot flatter the 1-GPU figure or starve the 4-GPU one. Prints one line per
# run and a table of the rates and their ratio to the first run.
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

bench_scratch gpu_scaling
failed=0
: >"$tmp/table"
for k in "${counts[@]}"; do
    gpus=$(seq -s, 0 $((k - 1)))
    list=$(printf '%s\n' "${cores[@]:0:$((k * per))}" | paste -sd,)
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
    if ! grep -q "^machine: .*(auto: $k CUDA devices\? found)" "$tmp/run-$k.log"; then
        echo "   FAILED: cugrade info did not say it saw $k GPU(s)"
        failed=1
    fi
    if [ "$rc" -ne 0 ]; then
        echo "   FAILED: bench/batch.sh exited with status $rc"
        tail -n 20 "$tmp/run-$k.log" | sed 's/^/   | /'
        failed=1
    fi
    echo "$k $((k * per)) ${rate:--} $mark" >>"$tmp/table"
done

echo "gpus  cores  submissions/minute  vs the first run"
awk '{
    if (NR == 1) base = $3
    ratio = ($3 != "-" && base != "-" && base > 0) ? sprintf("%.2fx", $3 / base) : "-"
    printf "%4d  %5d  %18s  %s%s\n", $1, $2, $3, ratio, ($4 != "" ? " " $4 " " $5 : "")
}' "$tmp/table"
[ "$failed" -eq 0 ] || bench_fail "a run did not pass (above): its rate is not a measurement of the whole class"

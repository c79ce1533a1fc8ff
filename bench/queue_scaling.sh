#!/usr/bin/env bash
# queue_scaling.sh - how a batch scales with GPUs when the GPUs' timing queues
# limit it, without a GPU: bench/queue_scaling.c (pretend submissions: CPU
# work, a shared hold, an exclusive hold; worker w on queue w mod G, 16
# workers per GPU as on a 16-core-per-GPU box) for 1, 2 and 4 queues, then
# the 2- and 4-queue throughputs over the 1-queue one (targets 1.8x and 3.5x
# for real GPUs, issue 16). Every line is checked: each run must exit 0 (no
# hold overlapped an exclusive one, no queue call failed).
# Usage: bench/queue_scaling.sh [CPU_MS SHARED_MS EXCLUSIVE_MS] (default 200 50 30)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
prog="$bench_root/build/bench/queue_scaling"
need_built QUEUE_SCALING_BIN "$prog" x
cpu=${1:-200} shared=${2:-50} excl=${3:-30}
declare -A rate
for g in 1 2 4; do
    line=$("$prog" "$g" $((16 * g)) $((200 * g)) "$cpu" "$shared" "$excl") ||
        bench_fail "queue_scaling with $g queue(s) failed: $line"
    echo "$line"
    rate[$g]=$(sed -n 's/.* \([0-9.]*\) submissions\/minute.*/\1/p' <<<"$line")
    [ -n "${rate[$g]}" ] || bench_fail "queue_scaling printed no rate: $line"
done
awk -v a="${rate[1]}" -v b="${rate[2]}" -v c="${rate[4]}" 'BEGIN {
    printf "scaling: 2 queues %.2fx, 4 queues %.2fx the 1-queue throughput (targets 1.8x, 3.5x)\n", b / a, c / a }'

#!/usr/bin/env bash
# report_channel.sh - what a program that fills its report channel costs the
# grader (issue 37 item 4): bench/report_channel.c writes LINES lines
# (default 1,000,000) and reads them as the grader does, in the grader's own
# CPU seconds: LINES distinct statistics (refused past 4096), LINES
# statistics over 4096 keys (every line read and summed), and a failed
# run's 100,000 findings through its dataset's verdict. Target: each within
# 2 s of grader time. Every line is checked (the driver exits 1 when a
# result is not what it must be: not refused, a sum off, the verdict's count
# missing), and a line without its seconds fails the bench.
# Usage: bench/report_channel.sh [LINES]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
prog=${REPORT_CHANNEL_BIN:-$bench_root/build/bench/report_channel}
if [ ! -x "$prog" ]; then
    how="run make build/bench/report_channel first (in $bench_root)"
    if [ -n "${REPORT_CHANNEL_BIN:-}" ]; then how="$how, or fix REPORT_CHANNEL_BIN=$REPORT_CHANNEL_BIN"; fi
    bench_cannot_start "$(bench_shown "$prog") is missing: $how"
fi
lines=${1:-1000000}
[[ $lines =~ ^[1-9][0-9]{0,7}$ ]] || bench_cannot_start "LINES must be a whole number from 1 to 99999999, not '$lines'"
bench_scratch report-channel
run_step "report_channel $lines" "$tmp/log" "$prog" "$lines"
echo "machine: $(nproc) cores, $(uname -m)"
worst=0
for name in distinct repeated findings; do
    line=$(grep "^$name: " "$tmp/log") || bench_fail "report_channel printed no '$name' line" "$tmp/log"
    secs=$(sed -n 's/.*, \([0-9.]*\) s of grader CPU .*/\1/p' <<<"$line")
    [ -n "$secs" ] || bench_fail "report_channel's '$name' line has no time" "$tmp/log"
    echo "$line"
    worst=$(awk -v a="$worst" -v b="$secs" 'BEGIN { print (b + 0 > a + 0 ? b : a) }')
done
echo "slowest: $worst s of grader CPU (target: within 2 s)"

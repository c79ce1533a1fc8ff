# shellcheck shell=bash
# bench/lib.sh - sourced by every bench script (bash, set -euo pipefail): the
# checks that keep a benchmark from printing a number it did not measure.
#
# Exit statuses, the same for every bench script:
#   0  every step ran, and every result it prints was checked
#   1  a step failed or a result is wrong (a grade that is not what it must be,
#      a program that printed nothing usable): the message says which, followed
#      by the last lines of that step's output
#   2  cannot start: a binary or tool it needs is missing (the message says
#      which, and how to get it: `make` for bin/ and build/), or a bad argument
# Every message starts with the script's name and goes to stderr.
#
# The binaries can be pointed elsewhere (tests/unit/test_bench.c does, to try
# the scripts against a missing or failing grader without the real runs):
#   CUGRADE_BIN      default <root>/bin/cugrade
#   EMUCC_BIN        default <root>/bin/emucc
#   CUGRADE_EMU_LIB  default <root>/build/libcugrade_emu.a (what emucc links)

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_self=bench/$(basename "$0")
# shellcheck disable=SC2034 # used by the scripts that source this file
cugrade=${CUGRADE_BIN:-$bench_root/bin/cugrade}
# shellcheck disable=SC2034
emucc=${EMUCC_BIN:-$bench_root/bin/emucc}
# shellcheck disable=SC2034
emu_lib=${CUGRADE_EMU_LIB:-$bench_root/build/libcugrade_emu.a}

# A path as the user knows it: relative to the repository root when inside it.
bench_shown() {
    case $1 in
    "$bench_root"/*) printf '%s\n' "${1#"$bench_root"/}" ;;
    *) printf '%s\n' "$1" ;;
    esac
}

# bench_cannot_start MESSAGE: exit 2.
bench_cannot_start() {
    printf '%s: %s\n' "$bench_self" "$*" >&2
    exit 2
}

# bench_fail MESSAGE [LOG]: exit 1, after the last lines of LOG if given.
bench_fail() {
    printf '%s: FAILED: %s\n' "$bench_self" "$1" >&2
    if [ $# -gt 1 ]; then
        if [ -s "$2" ]; then
            local lines
            lines=$(wc -l <"$2" | tr -d ' ')
            if [ "$lines" -gt 40 ]; then
                printf '%s: its output, last 40 of %s lines:\n' "$bench_self" "$lines" >&2
            else
                printf '%s: its output:\n' "$bench_self" >&2
            fi
            tail -n 40 "$2" | sed 's/^/    | /' >&2
        else
            printf '%s: it printed nothing\n' "$bench_self" >&2
        fi
    fi
    exit 1
}

# need_built VAR PATH x|f: a binary (x) or a library (f) that `make` builds;
# VAR is the environment variable that overrides PATH.
need_built() {
    local var=$1 path=$2 kind=$3 shown how
    shown=$(bench_shown "$path")
    how="run make first (in $bench_root)"
    if [ -n "${!var:-}" ]; then how="$how, or fix $var=${!var}"; fi
    [ -e "$path" ] || bench_cannot_start "$shown is missing: $how"
    if [ "$kind" = x ]; then
        if [ ! -f "$path" ] || [ ! -x "$path" ]; then
            bench_cannot_start "$shown is not an executable file: $how"
        fi
    elif [ ! -f "$path" ] || [ ! -r "$path" ]; then
        bench_cannot_start "$shown is not a readable file: $how"
    fi
}

# need_tool NAME HOW: a program from PATH (or a path), with what to do if missing.
need_tool() {
    if [[ $1 == */* ]]; then
        [ -f "$1" ] && [ -x "$1" ] && return 0
    elif command -v "$1" >/dev/null 2>&1; then
        return 0
    fi
    bench_cannot_start "$1 is missing: $2"
}

# need_nvcc HOW: sets nvcc to CUGRADE_NVCC, else nvcc from PATH, else the
# one in /usr/local/cuda/bin, as cugrade looks for it; exit 2 with HOW
# (what it is needed for, what to do) when there is none.
need_nvcc() {
    nvcc=${CUGRADE_NVCC:-nvcc}
    if [[ $nvcc != */* ]] && ! command -v "$nvcc" >/dev/null 2>&1 && [ -x "/usr/local/cuda/bin/$nvcc" ]; then
        nvcc=/usr/local/cuda/bin/$nvcc
    fi
    need_tool "$nvcc" "$1"
}

# run_step WHAT LOG CMD...: runs CMD with stdout and stderr in LOG; exit 1
# with the log's tail when it does not exit 0.
run_step() {
    local what=$1 log=$2 rc=0
    shift 2
    "$@" >"$log" 2>&1 || rc=$?
    [ "$rc" -eq 0 ] || bench_fail "$what exited with status $rc" "$log"
}

# allowed_cores: the cores this shell may run on, one number a line (its
# affinity, as taskset or a Slurm cpuset narrows it: /proc/self/status's
# Cpus_allowed_list, "0-3,8,10-11").
allowed_cores() {
    awk '/^Cpus_allowed_list:/ {
        n = split($2, parts, ",")
        for (i = 1; i <= n; i++) {
            if (split(parts[i], r, "-") == 1) r[2] = r[1]
            for (c = r[1] + 0; c <= r[2] + 0; c++) print c
        }
    }' /proc/self/status
}

# cpu_ticks: "BUSY TOTAL", the jiffies since boot of the cores this shell may
# run on (allowed_cores; /proc/stat's cpuN lines: user nice system idle
# iowait irq softirq steal; idle and iowait are not busy).
cpu_ticks() {
    allowed_cores | awk '
        NR == FNR { mine["cpu" $1] = 1; next }
        $1 in mine { t = 0; for (i = 2; i <= 9; i++) t += $i; busy += t - $5 - $6; total += t }
        END { print busy + 0, total + 0 }' - /proc/stat
}

# cpu_line "BUSY0 TOTAL0": how busy the cores were since then, one line.
cpu_line() {
    local b0 t0 b1 t1
    read -r b0 t0 <<<"$1"
    read -r b1 t1 <<<"$(cpu_ticks)"
    awk -v b="$((b1 - b0))" -v t="$((t1 - t0))" -v n="$(nproc)" 'BEGIN {
        if (t > 0) printf "cpu: %.0f%% of %d cores busy over the batch\n", 100 * b / t, n
        else print "cpu: not measured: the batch took under one clock tick of /proc/stat" }'
}

# is_count VALUE: a whole number >= 1.
is_count() { [[ $1 =~ ^[1-9][0-9]{0,5}$ ]]; }

# host_gpus: sets have_gpus to the number of GPUs `nvidia-smi -L` lists; exit
# 2 with its message when it fails (not "0 GPUs").
host_gpus() {
    local list
    list=$(nvidia-smi -L 2>&1) || bench_cannot_start "nvidia-smi -L failed: $list"
    # shellcheck disable=SC2034 # the caller's
    have_gpus=$(awk '/^GPU / { n++ } END { print n + 0 }' <<<"$list")
}

# wait_all WHAT: waits for every background job of this shell (each with its
# stderr in $tmp/err.*); when one failed, prints every err file and fails
# the bench: "WHAT: a process failed (above)".
wait_all() {
    local job failed=0
    for job in $(jobs -p); do wait "$job" || failed=1; done
    if [ "$failed" -ne 0 ]; then
        cat "$tmp"/err.* >&2
        bench_fail "$1: a process failed (above)"
    fi
}

# bench_scratch NAME: a temporary folder in $tmp, removed at exit, its out/
# copied to $BENCH_KEEP first when that is set; INT and TERM exit as usual.
bench_keep_and_remove() {
    if [ -n "${BENCH_KEEP:-}" ] && [ -d "$tmp/out" ]; then
        rm -rf "$BENCH_KEEP"
        cp -rp "$tmp/out" "$BENCH_KEEP" # -p: the results' times (when each ended)
    fi
    rm -rf "$tmp"
}
bench_scratch() {
    tmp=$(mktemp -d "/tmp/cugrade-bench-$1-XXXXXX")
    trap bench_keep_and_remove EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

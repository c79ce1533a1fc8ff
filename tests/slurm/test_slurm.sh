#!/usr/bin/env bash
# tests/slurm/test_slurm.sh - `cugrade batch --slurm` on a real Slurm (run by
# `make test`): a one-node cluster of its own (slurmctld, slurmd and munged
# from Debian's packages, started without systemd, configured in a temporary
# folder, on ports of its own), a class of six lab 3 submissions graded as a
# job array of 3 shards, one task cancelled while it grades, --status, the
# same --slurm command again (only the cancelled shard is submitted, and only
# its missing submission graded), the merged gradebook compared with a local
# `cugrade batch` of the same class, a third run that finds nothing left, and
# the message when sbatch is not on PATH. Everything it started is stopped
# and its folder removed on exit, so it can run again on the same machine.
#
# Needs root (slurmd runs the jobs) and the packages slurmctld, slurmd,
# slurm-client and munge (tools/deps.txt lists them for `make test`; missing
# ones are installed here with apt-get). CUGRADE_SKIP_SLURM_TEST=1 skips it.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
START=$(date +%s)
PACKAGES=(slurmctld slurmd slurm-client munge)

say() { echo "test_slurm: $*"; }
T=
fail() {
    echo "test_slurm: FAILED: $*" >&2
    if [ -n "$T" ] && [ -d "$T/log" ]; then
        for f in "$T"/log/*.log; do
            echo "---- $f (last lines)" >&2
            tail -n 15 "$f" >&2 || true
        done
    fi
    # the tasks' own logs, and what the first result says, so that a failure
    # on a CI machine can be read from its log alone
    if [ -n "${OUT:-}" ] && [ -d "$OUT/.slurm" ]; then
        for f in "$OUT"/.slurm/*.log; do
            echo "---- $f" >&2
            tail -n 15 "$f" >&2 || true
        done
        first=$(find "$OUT" -mindepth 2 -maxdepth 2 -name results.json | sort | head -n 1)
        if [ -n "$first" ]; then
            echo "---- $first (first 40 lines)" >&2
            head -n 40 "$first" >&2 || true
        fi
    fi
    exit 1
}

if [ "${CUGRADE_SKIP_SLURM_TEST:-0}" = 1 ]; then
    say "skipped (CUGRADE_SKIP_SLURM_TEST=1)"
    exit 0
fi
[ "$(id -u)" = 0 ] || fail "needs root: it starts slurmd, which runs the jobs (or set CUGRADE_SKIP_SLURM_TEST=1)"
[ -x bin/cugrade ] || fail "bin/cugrade is not built: run make first"

# ---- the packages ------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get update -qq >/dev/null || ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
        fail "apt-get could not install ${missing[*]} (no network or no Debian mirror?): install them and run again"
    fi
fi
for prog in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo scancel; do
    command -v "$prog" >/dev/null || fail "$prog not found after installing ${PACKAGES[*]}"
done

# ---- a one-node cluster in a temporary folder --------------------------------
T=$(mktemp -d /tmp/cugrade-slurm.XXXXXX)
chmod 711 "$T" # munged wants every folder above its socket searchable
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/class"
chmod 755 "$T/munge"
PIDS=()

stop_all() {
    set +e
    if [ -n "${SLURM_CONF:-}" ] && [ ${#PIDS[@]} -gt 0 ]; then
        scancel --partition=cugrade >/dev/null 2>&1
        for _ in $(seq 1 40); do # the jobs' processes end before the daemons do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill "${PIDS[$i]}" 2>/dev/null
    done
    for pid in "${PIDS[@]}"; do
        for _ in $(seq 1 40); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.25
        done
        kill -9 "$pid" 2>/dev/null
    done
    [ -n "$T" ] && rm -rf "$T"
}
trap stop_all EXIT

HOST=$(hostname -s)
PORT=$((20000 + RANDOM % 20000))
cat >"$T/slurm.conf" <<EOF
ClusterName=cugradetest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
GresTypes=gpu
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=5
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) Gres=gpu:1 State=UNKNOWN
PartitionName=cugrade Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
echo "Name=gpu File=/dev/null" >"$T/gres.conf"
export SLURM_CONF=$T/slurm.conf
unset SLURM_JOB_ID SLURM_ARRAY_TASK_ID SBATCH_PARTITION SBATCH_ACCOUNT

mungekey --create --keyfile="$T/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 status=none
chmod 600 "$T/munge.key"
munged --foreground --socket="$T/munge/munge.socket" --key-file="$T/munge.key" \
    --pid-file="$T/munged.pid" --log-file="$T/log/munged.log" --seed-file="$T/munged.seed" \
    >"$T/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 40); do [ -S "$T/munge/munge.socket" ] && break; sleep 0.25; done
[ -S "$T/munge/munge.socket" ] || fail "munged did not start"
slurmctld -D -i >"$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N "$HOST" >"$T/log/slurmd.out" 2>&1 &
PIDS+=($!)
state=
for _ in $(seq 1 120); do
    state=$(sinfo -h -N -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || fail "the node is not idle after 60 s (sinfo: '$state')"
[ "$(sinfo -h -N -o %G)" = gpu:1 ] || fail "the node has no gpu:1 gres: $(sinfo -h -N -o %G)"
say "a one-node Slurm $(sinfo -V | awk '{print $2}') is up on $HOST, port $PORT, $(nproc) CPU(s), in $T"

# ---- the class -----------------------------------------------------------------
# Sorted ids and shards of 3 (round robin): s1-intdiv and s4-endless share
# shard 1, graded one after the other (one CPU per task: --jobs 1).
add() { mkdir -p "$T/class/subs/$1/lab3" && cp "$2" "$T/class/subs/$1/lab3/matmul.cu"; }
add s0-reference reference/lab3/matmul.cu
add s1-intdiv tests/submissions/lab3/intdiv_grid.cu
add s2-compile tests/submissions/lab3/compile_error.cu
add s3-tile8 tests/submissions/lab3/tile8.cu
add s4-endless tests/submissions/lab3/endless_kernel.cu
add s5-transposed tests/submissions/lab3/transposed_a.cu
export CUGRADE_HIDDEN_SEED_FILE=$ROOT/tests/fixtures/hidden/seed # no secret made in the checkout
OPTS=(--lab lab3 --backend emu --checks none --budget-s 10)
OUT=$T/class/out
cd "$T/class" # relative paths: the tasks must get absolute ones
slurm_batch() { SBATCH_TIMELIMIT=15 "$ROOT/bin/cugrade" batch --slurm --shards 3 \
    --sbatch=--partition=cugrade --sbatch=--comment=cugrade-test "${OPTS[@]}" --out out subs; }
job_of() { sed -n "s/.*job array \([0-9]*\):.*/\1/p; s/.*: job \([0-9]*\) rebuilds.*/\1/p" <<<"$1"; }

wait_for_jobs() { # until none of the given jobs is in the queue
    for _ in $(seq 1 360); do
        [ -z "$(squeue -h -j "$(IFS=,; echo "$*")" -o %i 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    fail "jobs $* still in the queue after 180 s: $(squeue)"
}

# ---- 1: the array, one task cancelled mid-grading ------------------------------
out1=$(slurm_batch) || fail "cugrade batch --slurm failed: $out1"
echo "$out1" | sed 's/^/  | /'
mapfile -t jobs1 < <(job_of "$out1")
[ ${#jobs1[@]} = 2 ] || fail "expected an array job and a merge job: $out1"
grep -q -- "3 of 3 shard(s) (--array=0-2)" <<<"$out1" || fail "not the 3 shards: $out1"
show=$(scontrol show job "${jobs1[0]}")
grep -q "TimeLimit=00:15:00" <<<"$show" || fail "SBATCH_TIMELIMIT=15 was not kept: $show"
grep -q "Comment=cugrade-test" <<<"$show" || fail "--sbatch=--comment=cugrade-test did not reach sbatch"
grep -q "Dependency=afterany:${jobs1[0]}" <<<"$(scontrol show job "${jobs1[1]}")" ||
    fail "the merge job does not wait for the array"

task1=${jobs1[0]}_1
for _ in $(seq 1 240); do # s1-intdiv graded, s4-endless being graded
    [ -f "$OUT/s1-intdiv/inputs.sha256" ] && [ "$(squeue -h -j "$task1" -o %T)" = RUNNING ] && break
    sleep 0.25
done
[ -f "$OUT/s1-intdiv/inputs.sha256" ] || fail "task $task1 never graded s1-intdiv"
[ ! -f "$OUT/s4-endless/inputs.sha256" ] || fail "s4-endless was graded before the cancel could come"
scancel "$task1"
say "cancelled task $task1 while it graded s4-endless"
wait_for_jobs "${jobs1[@]}"
[ ! -f "$OUT/s4-endless/inputs.sha256" ] || fail "s4-endless has a result although its task was cancelled"

status=$("$ROOT/bin/cugrade" batch --status --out out) || fail "--status failed: $status"
echo "$status" | sed 's/^/  | /'
# the cancelled submission is missing (killed before anything was written) or failed (its
# task lived long enough to record the killed grading as not graded): both are graded again
grep -qE "6 submission\(s\): 5 done, (1 missing, 0 failed|0 missing, 1 failed)" <<<"$status" ||
    fail "--status after the cancel: $status"
grep -qE "(missing|failed \(NOT GRADED, see run.log\)): s4-endless" <<<"$status" ||
    fail "--status does not name s4-endless: $status"
grep -q "CANCELLED" <<<"$status" || fail "--status does not show the cancelled task: $status"
grep -q "not every submission has a result yet" "$OUT/.slurm/merge-${jobs1[1]}.log" ||
    fail "the first merge did not say what was missing: $(cat "$OUT/.slurm/merge-${jobs1[1]}.log")"
before=$(cd "$OUT" && stat -c '%n %Y.%y' s[0-35]*/results.json)

# ---- 2: the same command again: only the cancelled shard, only s4-endless ------
out2=$(slurm_batch) || fail "the second cugrade batch --slurm failed: $out2"
echo "$out2" | sed 's/^/  | /'
mapfile -t jobs2 < <(job_of "$out2")
[ ${#jobs2[@]} = 2 ] || fail "expected an array job and a merge job: $out2"
grep -q -- "1 of 3 shard(s) (--array=1)" <<<"$out2" || fail "the rerun did not submit shard 1 alone: $out2"
wait_for_jobs "${jobs2[@]}"
log=$OUT/.slurm/task-${jobs2[0]}_1.log
grep -q "2 submission(s), 1 to grade, 0 to re-score, 1 unchanged (skipped)" "$log" || fail "the rerun's task: $(cat "$log")"
grep -q "] s4-endless " "$log" || fail "the rerun did not grade s4-endless: $(cat "$log")"
after=$(cd "$OUT" && stat -c '%n %Y.%y' s[0-35]*/results.json)
[ "$before" = "$after" ] || fail "results already done were rewritten:\n$before\n$after"

# ---- 3: the merged gradebook is a local batch's --------------------------------
"$ROOT/bin/cugrade" batch "${OPTS[@]}" --out local subs >"$T/log/local-batch.log" 2>&1 ||
    fail "the local batch failed: $(tail -n 20 "$T/log/local-batch.log")"
diff -u local/gradebook.csv out/gradebook.csv >"$T/log/gradebook.diff" ||
    fail "the merged gradebook differs from the local batch's: $(cat "$T/log/gradebook.diff")"
[ "$(wc -l <out/gradebook.csv)" = 7 ] || fail "the gradebook has not 6 rows: $(cat out/gradebook.csv)"
say "merged gradebook = local batch's gradebook ($(head -n 1 out/gradebook.csv | tr ',' '\n' | wc -l) columns, 6 rows)"

status=$("$ROOT/bin/cugrade" batch --slurm --status --out out) || fail "--status failed: $status"
grep -q "6 submission(s): 6 done, 0 missing, 0 failed" <<<"$status" || fail "--status at the end: $status"
grep -q "all 6 done" <<<"$status" || fail "--status at the end: $status"

# ---- 4: nothing left; and no sbatch ---------------------------------------------
out3=$(slurm_batch) || fail "the third cugrade batch --slurm failed: $out3"
grep -q "nothing left to grade" <<<"$out3" || fail "the third run: $out3"
[ -z "$(squeue -h -o %i)" ] || fail "the third run submitted a job: $(squeue)"
[ "$(grep -c '"array_job"' "$OUT/.slurm/slurm.json")" = 2 ] || fail "the record has not 2 submissions"

rc=0
nosb=$(PATH=/nonexistent-bin "$ROOT/bin/cugrade" batch --slurm "${OPTS[@]}" --out out2 subs 2>&1) || rc=$?
[ "$rc" = 2 ] || fail "without sbatch: exit $rc, not 2: $nosb"
grep -q "cugrade batch --slurm: sbatch not found on PATH (/nonexistent-bin)" <<<"$nosb" ||
    fail "without sbatch: $nosb"
[ ! -e out2 ] || fail "without sbatch something was written"

cd "$ROOT"
say "passed in $(($(date +%s) - START)) s"

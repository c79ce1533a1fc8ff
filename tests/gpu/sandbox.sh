#!/usr/bin/env bash
# tests/gpu/sandbox.sh - the jail's seccomp allow-lists on a real GPU (make
# gpu-test; needs a CUDA device, nvcc, bubblewrap and strace): each lab's
# reference graded on the native backend under tools/syscalls_used.sh, in the
# first tier and (as root) the second; every one must get full marks with no
# call refused in its sandbox. Prints one line per grading and the calls the
# sandboxed processes made (for docs/security.md), and exits 1 if any
# verdict is wrong, 2 if the grader itself fails.
# The helpers (field, verdict, finish) are tests/gpu/lib.sh's.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=$(mktemp -d /tmp/cugrade-gpu-sandbox-XXXXXX)
failures=0
verdict_width=28
# shellcheck source=tests/gpu/lib.sh
. tests/gpu/lib.sh
command -v strace >/dev/null || { echo "GRADER FAULT: strace not found"; exit 2; }

traced() { # NAME LAB FILE [ENV...]: FILE graded on the native backend under strace
    local name=$1 lab=$2 file=$3; shift 3
    env "$@" tools/syscalls_used.sh "$out/$name" run --lab "$lab" --backend native --color never \
        --json "$out/$name.json" "$file" > "$out/$name.calls" 2>&1
    local rc=$?
    if [ $rc -ge 2 ] || [ ! -f "$out/$name.json" ]; then
        echo "GRADER FAULT $name (exit $rc):"; tail -20 "$out/$name/cugrade.log"; exit 2
    fi
    # chmod: the CUDA driver's chmod of its own device file (/dev/nvidia0, 0666),
    # which the kernel refuses to a uid not its owner; chmod is allowed by the filter
    local refused; refused=$(grep -cv '^chmod	' "$out/$name/refused")
    if [ "$refused" -ne 0 ]; then
        echo "FAIL  $name: $refused call(s) refused in the sandbox:"; grep -v '^chmod	' "$out/$name/refused"
        failures=$((failures + 1))
    fi
}

full_marks="r['score'] == sum(x['max_score'] for x in r['tests'])"
for lab in lab3 lab3-wb dotprod lab2; do
    ref=$(ls reference/$lab/*.cu | head -1)
    traced "$lab" "$lab" "$ref"
    verdict "$lab" "reference: full marks, first tier" \
        "$full_marks and 'sandbox: bubblewrap' in r['output']"
done
if [ "$(id -u)" = 0 ]; then
    traced lab3_uid lab3 reference/lab3/matmul.cu CUGRADE_SANDBOX=uid
    verdict lab3_uid "reference: full marks, second tier" \
        "$full_marks and 'sandbox: uid' in r['output']"
fi
echo "== calls made in the sandboxes (all gradings)"
cat "$out"/*/used | awk -F'\t' '{ a[$1] = a[$1] ", " $2 } END { for (c in a) print c "\t" substr(a[c], 3) }' |
    sort | cut -c1-160
finish "sandbox"

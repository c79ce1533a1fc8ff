# shellcheck shell=bash
# tests/gpu/lib.sh - the helpers of the GPU tests (attacks.sh, challenge.sh),
# sourced by each from the repository root. The script sets, before it calls
# them: out (the folder of its results), failures (0) and verdict_width (of
# the name column of verdict's lines).
# shellcheck disable=SC2154 # out and verdict_width are the sourcing script's

# field FILE EXPR: a value of results.json (python3: no jq on the GPU image);
# EXPR sees r (results.json), t (its tests by name, less " (...)"), x (its
# extra_data) and json
field() { python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tests = {t["name"].split(" (")[0]: t for t in r.get("tests", [])}
extra = r.get("extra_data", {})
print(eval(sys.argv[2], {"r": r, "t": tests, "x": extra, "json": json}))
PY
}

grade() { # NAME LAB FILE [ENV...] [-- FLAG...]: grades FILE on $CUGRADE_GPU_TEST_BACKEND (default native; with
           # cugrade run's FLAGs) into $out/NAME.json
    local name=$1 lab=$2 file=$3 envs=() flags=(); shift 3
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    flags=("$@")
    env "${envs[@]}" bin/cugrade run --lab "$lab" --backend "${CUGRADE_GPU_TEST_BACKEND:-native}" --color never \
        --json "$out/$name.json" "${flags[@]}" "$file" > "$out/$name.log" 2>&1
    local rc=$?
    if [ $rc -ge 2 ] || [ ! -f "$out/$name.json" ]; then
        echo "GRADER FAULT $name (exit $rc):"; tail -20 "$out/$name.log"; exit 2
    fi
}

verdict() { # NAME WHAT PYTHON-EXPR: ok when EXPR (field's) is True on $out/NAME.json
    local got; got=$(field "$out/$1.json" "$3")
    if [ "$got" = "True" ]; then printf 'ok    %-*s %s\n' "$verdict_width" "$1" "$2"
    else printf 'FAIL  %-*s %s\n' "$verdict_width" "$1" "$2"; failures=$((failures + 1)); fi
}

finish() { # WHAT: removes $out, prints the summary line and exits 1 if any verdict was wrong
    rm -rf "$out"
    [ "$failures" -eq 0 ] && echo "gpu $1: all verdicts as expected" || echo "gpu $1: $failures wrong"
    exit $((failures > 0))
}

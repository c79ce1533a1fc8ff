#!/usr/bin/env python3
"""batch_verdicts.py - bench/batch.sh's judge of a graded class: every
student's verdict against its kind, where the time went, and the performance
score in the batch against the same kernel graded alone.

Usage: batch_verdicts.py OUT KINDS ALONE [--finished]
  OUT     the batch's results folder (OUT/<id>/results.json)
  KINDS   lines "ID KIND"
  ALONE   lines "KIND RESULTS.JSON" of the kinds graded alone (may be empty)
  --finished  judge only the students that have a results.json (a batch
              stopped at its deadline): the others are counted, not failed

Exit 1 when a judged verdict is not as its kind expects (the line
"verdicts NOT as expected: ..." says whose), else 0. Everything else it
prints is information: phase times, the GPU's held times, the speed ratios
(over all and per GPU that timed them, from the performance test's "timed
alone on GPU N" line) and the largest batch-vs-alone difference.
"""
import collections
import json
import re
import statistics
import sys


def tests(r):
    return {t["name"]: t for t in r["tests"]}


def status(r, name):
    t = tests(r).get(name)
    return t and t["status"]


def datasets(r):
    return [t for n, t in tests(r).items() if n.startswith("dataset ")]


def all_pass(r):
    return all(t["status"] == "passed" for t in datasets(r))


def some_fail(r):
    d = datasets(r)
    return any(t["status"] != "passed" for t in d) and any(t["status"] == "passed" for t in d)


def any_output(r, text):
    return any(text in (t.get("output") or "") for t in datasets(r))


EXPECT = {
    "reference": lambda r: all_pass(r) and status(r, "race-free") == "passed",
    "tile32": lambda r: all_pass(r),
    "untiled": lambda r: all_pass(r),
    "intdiv_grid": lambda r: some_fail(r) and any_output(r, "never written"),
    "missing_barrier": lambda r: status(r, "race-free") == "failed",
    "unguarded_loads": lambda r: status(r, "memory-safe") == "failed",
    "compile_error": lambda r: status(r, "compiles") == "failed",
    "host_segfault": lambda r: any_output(r, "killed by signal"),
    "endless_kernel": lambda r: any_output(r, "exceeded the time limit"),
}


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def perf_points(r):
    t = tests(r).get("performance")
    return t and t.get("score")


def timed_on(r):
    """The GPU that timed the student's kernel, from the performance test's text."""
    t = tests(r).get("performance") or {}
    m = re.search(r"timed alone on GPU (\d+)", t.get("output") or "")
    return int(m.group(1)) if m else None


def judge(out, students, finished_only):
    rows = collections.defaultdict(lambda: [0, 0, 0.0])
    bad, results, unfinished = [], {}, 0
    for sid, kind in students:
        r = load(f"{out}/{sid}/results.json")
        if r is None and finished_only:
            unfinished += 1
            continue
        try:
            ok, score = EXPECT[kind](r), r["score"]
        except (TypeError, KeyError):
            ok, score = False, 0
        results[sid] = r
        row = rows[kind]
        row[0] += 1
        row[1] += ok
        row[2] += score
        if not ok:
            bad.append(f"{sid} ({kind})")
    if finished_only:
        print(f"judged: the {len(results)} finished of {len(results) + unfinished}")
    print(f"{'kind':<17} {'n':>3} {'verdict ok':>10} {'mean score':>10}")
    for kind, (count, ok, total) in sorted(rows.items()):
        print(f"{kind:<17} {count:>3} {ok:>10} {total / count:>10.1f}")
    print("verdicts: all as expected" if not bad else "verdicts NOT as expected: " + ", ".join(bad))
    return results, bad


def print_phases(results):
    phases = collections.defaultdict(list)
    fine = collections.defaultdict(list)
    for r in results.values():
        extra = (r or {}).get("extra_data", {})
        for part in (extra.get("phase_times") or "").split(", "):
            try:
                name, secs, _ = part.split(" ")
                phases[name].append(float(secs))
            except ValueError:
                pass
        for name, secs in (extra.get("phases") or {}).items():
            fine[name].append(secs)
    if phases:
        print("mean seconds per submission: " + ", ".join(
            f"{n} {sum(v) / len(v):.1f}" for n, v in phases.items()))
    if not fine:
        return
    work = [k for k in fine if not k.startswith("gpu_")]
    total = sum(sum(fine[k]) for k in work) or 1
    print(f"{'phase':<14} {'mean s':>7} {'share':>6}")
    for k in work:
        print(f"{k:<14} {sum(fine[k]) / len(fine[k]):>7.2f} {100 * sum(fine[k]) / total:>5.1f}%")
    for k in ("gpu_wait", "gpu_exclusive", "gpu_start"):
        if k in fine:
            print(f"{k:<14} {sum(fine[k]) / len(fine[k]):>7.2f}   (inside the phases above)")
    timed = [v for v in fine.get("gpu_exclusive", []) if v > 0]
    if timed:
        print(f"GPU held alone per timed submission: mean {sum(timed) / len(timed):.3f} s, "
              f"max {max(timed):.3f} s over {len(timed)} (budget 0.5 s)")
    perf = [(tests(r).get("performance") or {}).get("output") or "" for r in results.values() if r]
    tail = sum("in the datasets' process" in t for t in perf)
    if timed:
        print(f"timed in the datasets' own process (the timing tail): {tail} of {len(timed)}; "
              f"the others by a second GPU program")
    slow = fine.get("gpu_slowest_dataset", [])
    if any(v > 0 for v in slow):
        print(f"slowest GPU dataset run that ended: {max(slow):.3f} s "
              f"(the rubric's gpu_time_limit_s caps each)")
    # the budget's margin: the runs of the submissions whose every dataset ended
    held = [(r.get("extra_data", {}).get("phases") or {}).get("gpu_datasets_held", 0)
            for r in results.values() if r and datasets(r) and not any_output(r, "time limit")
            and not any_output(r, "time budget")]
    if any(v > 0 for v in held):
        print(f"GPU held by the dataset runs of a submission none of whose runs hit a limit: "
              f"median {statistics.median(held):.3f} s, max {max(held):.3f} s over {len(held)} "
              f"(the rubric's gpu_budget_s caps them together)")


def print_ratios(results, kind_of):
    ratios = collections.defaultdict(list)
    per_gpu = collections.defaultdict(list)
    for sid, r in results.items():
        ratio = (r or {}).get("extra_data", {}).get("perf_ratio")
        if not ratio:
            continue
        ratios[kind_of[sid]].append(ratio)
        gpu = timed_on(r)
        if gpu is not None:
            per_gpu[(kind_of[sid], gpu)].append(ratio)
    for kind, v in sorted(ratios.items()):
        print(f"speed ratio to the reference, {kind}: n={len(v)} min {min(v):.3f} "
              f"max {max(v):.3f} spread {max(v) - min(v):.3f}")
    gpus = sorted({g for _, g in per_gpu})
    if len(gpus) < 2:
        return
    for kind in sorted({k for k, _ in per_gpu}):
        medians = {g: statistics.median(per_gpu[(kind, g)]) for g in gpus if per_gpu[(kind, g)]}
        if len(medians) < 2:
            continue
        print(f"speed ratio by the GPU that timed it, {kind}: " + ", ".join(
            f"GPU {g} n={len(per_gpu[(kind, g)])} median {m:.3f}" for g, m in medians.items())
            + f"; card to card {max(medians.values()) - min(medians.values()):.3f}")


def compare_alone(results, kind_of, alone_list, bad):
    alone = {}
    for line in open(alone_list):
        kind, path = line.split()
        r = load(path)
        alone[kind] = perf_points(r) if r else None
    worst = 0.0
    for sid, r in results.items():
        kind = kind_of[sid]
        if kind not in alone or alone[kind] is None:
            continue
        p = perf_points(r) if r else None
        if p is None:
            bad.append(f"{sid} ({kind}: no performance score)")
            continue
        worst = max(worst, abs(p - alone[kind]))
    if alone:
        print("performance score alone: " + ", ".join(f"{k} {v}" for k, v in alone.items()))
        print(f"performance score in the batch vs alone: largest difference {worst:.2f} points "
              f"(target <= 1 of 10)")


def main(argv):
    if len(argv) not in (4, 5) or (len(argv) == 5 and argv[4] != "--finished"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out, kinds, alone_list = argv[1:4]
    students = [tuple(line.split()) for line in open(kinds) if line.strip()]
    kind_of = dict(students)
    results, bad = judge(out, students, len(argv) == 5)
    print_phases(results)
    compare_alone(results, kind_of, alone_list, bad)
    print_ratios(results, kind_of)
    if bad:
        print("NOT as expected: " + ", ".join(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

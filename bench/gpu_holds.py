#!/usr/bin/env python3
"""gpu_holds.py - where a batch's GPU time went, from the GPU queues' logs
(grader/run/gpuqueue.h: one line a hold, "REQUESTED GRANTED RELEASED S|X
PID LABEL", LABEL the student id).

Usage: gpu_holds.py QUEUE_DIR [KINDS] [--long S]
  QUEUE_DIR  the batch's queue folder (RESULTS/.gpu-queue unless --gpu-queue)
  KINDS      lines "ID KIND" (bench/batch.sh's), to sum by kind
  --long S   a shared hold longer than S seconds counts as long (default 2)

Prints, per GPU: how many holds, the time held alone (timed runs), the time
some hold was on, how long timed runs waited in all and how much of it
behind long shared holds (by kind: a hung kernel holds the GPU until its
limit, and every timed run waits), and the longest shared holds. Exit 2 when
there is no log to read, else 0.
"""
import collections
import glob
import os
import sys


def read_holds(path):
    holds = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 6 or parts[3] not in ("S", "X"):
                continue
            try:
                req, got, rel = (float(x) for x in parts[:3])
            except ValueError:
                continue
            holds.append((req, got, rel, parts[3], parts[5]))
    return holds


def union_length(intervals):
    total, end = 0.0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def waits_behind(holds, long_s):
    """Seconds timed runs waited while long shared holds were on, by label
    (a moment with k long holds on is split k ways)."""
    longs = [(got, rel, label) for _, got, rel, use, label in holds
             if use == "S" and rel - got > long_s]
    blame = collections.defaultdict(float)
    for req, got, _, use, _ in holds:
        if use != "X" or got <= req:
            continue
        cuts = sorted({req, got} | {t for a, b, _ in longs for t in (a, b) if req < t < got})
        for a, b in zip(cuts, cuts[1:]):
            on = [label for s, e, label in longs if s <= a and e >= b]
            for label in on:
                blame[label] += (b - a) / len(on)
    return blame


def summarize(gpu, holds, kind_of, long_s):
    start = min(h[0] for h in holds)
    end = max(h[2] for h in holds)
    alone = [h for h in holds if h[3] == "X"]
    shared = [h for h in holds if h[3] == "S"]
    alone_s = sum(h[2] - h[1] for h in alone)
    busy_s = union_length([(h[1], h[2]) for h in holds])
    span = end - start or 1
    print(f"GPU {gpu}: {len(holds)} holds ({len(shared)} shared, {len(alone)} alone) over "
          f"{end - start:.1f} s; held alone {alone_s:.1f} s ({100 * alone_s / span:.0f}%), "
          f"some hold on {busy_s:.1f} s ({100 * busy_s / span:.0f}%)")
    waited = sum(h[1] - h[0] for h in alone)
    blame = waits_behind(holds, long_s)
    by_kind = collections.defaultdict(lambda: [0.0, set()])
    for label, secs in blame.items():
        k = by_kind[kind_of.get(label, label)]
        k[0] += secs
        k[1].add(label)
    behind = sum(blame.values())
    parts = ", ".join(f"{kind} {secs:.1f} s ({len(labels)} students)" for kind, (secs, labels)
                      in sorted(by_kind.items(), key=lambda kv: -kv[1][0]))
    print(f"  timed runs waited {waited:.1f} s in all; {behind:.1f} s of it behind shared holds "
          f"longer than {long_s:g} s" + (f": {parts}" if parts else ""))
    longest = sorted(shared, key=lambda h: h[1] - h[2])[:5]
    if longest and longest[0][2] - longest[0][1] > long_s:
        print("  longest shared holds: " + ", ".join(
            f"{h[4]} ({kind_of.get(h[4], '?')}) {h[2] - h[1]:.1f} s"
            for h in longest if h[2] - h[1] > long_s))


def main(argv):
    args, long_s = [], 2.0
    i = 1
    while i < len(argv):
        if argv[i] == "--long" and i + 1 < len(argv):
            long_s = float(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if not 1 <= len(args) <= 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kind_of = {}
    if len(args) == 2:
        kind_of = dict(line.split() for line in open(args[1]) if line.strip())
    logs = sorted(glob.glob(os.path.join(args[0], "gpu*.holds")))
    if not logs:
        print(f"gpu_holds.py: no gpu*.holds in {args[0]}", file=sys.stderr)
        return 2
    for path in logs:
        holds = read_holds(path)
        if holds:
            summarize(os.path.basename(path)[3:-6], holds, kind_of, long_s)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

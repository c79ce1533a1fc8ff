#!/usr/bin/env bash
# make_datasets.sh LAB - regenerate datasets/LAB/* from datasets/LAB/manifest.txt
# (folder, shape, seed, values [generated] per line) with bin/cugrade dataset, then verify
# them all with `cugrade dataset --check`.
set -euo pipefail
lab=${1:-lab3}
root=$(cd "$(dirname "$0")/.." && pwd)
manifest="$root/datasets/$lab/manifest.txt"
[ -f "$manifest" ] || { echo "make_datasets: no $manifest" >&2; exit 2; }
while read -r name shape seed values _; do
    case "$name" in ''|\#*) continue ;; esac
    "$root/bin/cugrade" dataset --lab "$lab" --shape "$shape" --seed "$seed" --values "$values" \
        --out "$root/datasets/$lab/$name"
done <"$manifest"
"$root/bin/cugrade" dataset --lab "$lab" --check "$root/datasets/$lab"

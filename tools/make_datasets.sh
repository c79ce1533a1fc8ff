#!/usr/bin/env bash
# make_datasets.sh [--missing] LAB - regenerate datasets/LAB/* from datasets/LAB/manifest.txt
# (folder, shape, seed, values [generated] per line) with bin/cugrade dataset, then verify
# them all with `cugrade dataset --check`. --missing: make only the "generated" datasets
# whose folder is missing (an export's setup, which ships them as manifest lines).
set -euo pipefail
missing=0
if [ "${1:-}" = --missing ]; then
    missing=1
    shift
fi
lab=${1:-lab3}
root=$(cd "$(dirname "$0")/.." && pwd)
manifest="$root/datasets/$lab/manifest.txt"
[ -f "$manifest" ] || { echo "make_datasets: no $manifest" >&2; exit 2; }
while read -r name shape seed values rest; do
    case "$name" in ''|\#*) continue ;; esac
    if [ $missing = 1 ]; then # a "generated" line (before any comment) whose folder is missing
        read -r mark _ <<<"${rest%%#*}" || true
        [ "${mark:-}" = generated ] && [ ! -d "$root/datasets/$lab/$name" ] || continue
    fi
    "$root/bin/cugrade" dataset --lab "$lab" --shape "$shape" --seed "$seed" --values "$values" \
        --out "$root/datasets/$lab/$name"
done <"$manifest"
"$root/bin/cugrade" dataset --lab "$lab" --check "$root/datasets/$lab"

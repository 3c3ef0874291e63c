#!/usr/bin/env bash
# Compares two builds of the `setback_steady` example on the same checkpoint and deals, run at
# the same time on cores 0 and 1 (swapped every round), so both see the same machine load:
#
#   benches/setback_side_by_side.sh OLD_BINARY NEW_BINARY CHECKPOINT [DEALS] [ROUNDS]
#
# Prints each round's deals/s and the new/old ratio, then the median ratio. Both runs of a round
# must end at the same root value (with one thread it depends only on the checkpoint and the
# deals), or the two builds do not train the same tables and the script fails.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY CHECKPOINT [DEALS (default 3000)] [ROUNDS (default 6)]" >&2
  exit 2
fi
old=$1 new=$2 checkpoint=$3 deals=${4:-3000} rounds=${5:-6}
for f in "$old" "$new" "$checkpoint"; do
  [ -f "$f" ] || { echo "$0: no such file: $f" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ratios=()
for r in $(seq 1 "$rounds"); do
  core_old=$(( (r + 1) % 2 )) core_new=$(( r % 2 ))
  taskset -c "$core_old" "$old" "$checkpoint" "$deals" > "$out/old" &
  taskset -c "$core_new" "$new" "$checkpoint" "$deals" > "$out/new"
  wait
  rate_old=$(grep -o '[0-9.]* deals/s' "$out/old" | cut -d' ' -f1)
  rate_new=$(grep -o '[0-9.]* deals/s' "$out/new" | cut -d' ' -f1)
  root_old=$(grep -o 'root value .*' "$out/old")
  root_new=$(grep -o 'root value .*' "$out/new")
  if [ "$root_old" != "$root_new" ]; then
    echo "round $r: the builds trained different tables ($root_old, $root_new)" >&2
    exit 1
  fi
  ratio=$(python3 -c "print(f'{$rate_new / $rate_old:.3f}')")
  ratios+=("$ratio")
  echo "round $r: old $rate_old deals/s (core $core_old), new $rate_new deals/s (core $core_new), ratio $ratio; $root_new"
done
python3 -c "import statistics, sys; print(f'median new/old: {statistics.median(map(float, sys.argv[1:])):.3f}')" "${ratios[@]}"

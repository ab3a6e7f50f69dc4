#!/usr/bin/env bash
# GNU parallel on this machine: renders SCRIPT as N shards, JOBS at a time, then joins them.
#
#   scripts/recipes/parallel-local.sh SCRIPT N OUT.mp4 [RENDER OPTIONS...]
#
# Run it from the folder the render should happen in (the script's paths are relative to
# it). It makes out/ (the segments, out/seg-1.mp4 … out/seg-N.mp4) and logs/ (each shard's
# messages in logs/shard-I.log, GNU parallel's job log in logs/joblog). Any N works: shards
# past the scene's keyframe intervals write empty marker segments. The join is
# `chartscene concat`, which refuses the set unless it is every shard 1 … N of one render.
#
# Environment: JOBS (shards at once; default: one per core), CHARTSCENE (the command;
# default: chartscene on PATH).
set -euo pipefail
usage() { echo "usage: $0 SCRIPT N OUT.mp4 [RENDER OPTIONS...]" >&2; exit 64; }
[ $# -ge 3 ] || usage
script=$1 n=$2 out=$3
shift 3
case $n in '' | *[!0-9]*) usage ;; esac
[ "$n" -ge 1 ] || usage
chartscene=${CHARTSCENE:-chartscene}
mkdir -p out logs

opts=""
if [ $# -gt 0 ]; then opts=$(printf ' %q' "$@"); fi
# One shell command for parallel, every word quoted; {} is the shard number.
cmd="$(printf '%q ' "$chartscene" "$script")--shard {}/$n -o out/seg-{}.mp4$opts 2> logs/shard-{}.log"
if ! parallel -j "${JOBS:-100%}" --halt now,fail=1 --joblog logs/joblog "$cmd" ::: $(seq 1 "$n"); then
  for f in $(seq -f 'logs/shard-%g.log' 1 "$n"); do
    if [ -s "$f" ]; then echo "$f: $(head -n 1 "$f")" >&2; fi
  done
  echo "error: a shard failed (logs/joblog, logs/shard-I.log); nothing joined" >&2
  exit 1
fi
"$chartscene" concat "$out" $(seq -f 'out/seg-%g.mp4' 1 "$n")

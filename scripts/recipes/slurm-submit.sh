#!/usr/bin/env bash
# Slurm: submits SCRIPT as an array of N shards (scripts/recipes/slurm-shards.sbatch) and a
# job that joins them once every task has succeeded (--dependency=afterok).
#
#   scripts/recipes/slurm-submit.sh SCRIPT N OUT.mp4 [RENDER OPTIONS...]
#
# Run it from the folder the render should happen in, on a file system the nodes share. It
# makes out/ (out/seg-1.mp4 … out/seg-N.mp4) and logs/ (logs/shard-I.log for each task,
# logs/concat.log for the join) and prints the two job ids. The join is `chartscene concat`,
# which refuses the set unless it is every shard 1 … N of one render (a node with another
# build or other data is caught there); if a task fails, the join never starts (Slurm shows
# it as DependencyNeverSatisfied).
#
# Environment: SBATCH_OPTIONS (more sbatch options for both jobs, e.g. "--partition=render"),
# CHARTSCENE (the command on the nodes; default: chartscene).
set -euo pipefail
usage() { echo "usage: $0 SCRIPT N OUT.mp4 [RENDER OPTIONS...]" >&2; exit 64; }
[ $# -ge 3 ] || usage
script=$1 n=$2 out=$3
shift 3
case $n in '' | *[!0-9]*) usage ;; esac
[ "$n" -ge 1 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p out logs
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="1-$n" --output=logs/shard-%a.log "$here/slurm-shards.sbatch" "$script" "$@")
array=${array%%;*}
join="$(printf '%q ' "${CHARTSCENE:-chartscene}" concat "$out")$(seq -f 'out/seg-%g.mp4' 1 "$n" | tr '\n' ' ')"
# shellcheck disable=SC2086
concat=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=chartscene-concat --dependency="afterok:$array" --output=logs/concat.log --wrap "$join")
echo "shards: job $array (array 1-$n); join: job ${concat%%;*} into $out"

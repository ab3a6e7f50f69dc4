#!/usr/bin/env bash
# GNU parallel over ssh: renders SCRIPT as N shards on the machines of SSHLOGIN, brings the
# segments back and joins them here.
#
#   SSHLOGIN=2/w1.example.com,2/w2.example.com scripts/recipes/parallel-ssh.sh SCRIPT N OUT.mp4 [RENDER OPTIONS...]
#
# Every worker needs chartscene (with its assets), ffmpeg and rsync; GNU parallel sends
# SCRIPT and the files in FILES (its data, modules, presets, at the same relative paths)
# to each worker's WORKDIR before the first job (--basefile), brings out/seg-I.mp4 back
# (--return) and removes what it sent and made (--cleanup). Here it makes out/ (the
# segments) and logs/ (the shards' messages, tagged "shard I", in logs/shards.log, and
# parallel's job log, logs/joblog). The join is `chartscene concat` on this machine, which
# refuses the set unless it is every shard 1 … N of one render: a worker with another build
# of chartscene or other data is caught there.
#
# Environment: SSHLOGIN (required; GNU parallel's --sshlogin, e.g. 2/user@host,4/host2),
# FILES (files to send besides SCRIPT, separated by spaces), CHARTSCENE (the command on
# the workers; default: chartscene), SSH (the ssh command; default: ssh), WORKDIR (the
# folder on the workers; default: /tmp/chartscene-USER-PID).
set -euo pipefail
usage() { echo "usage: SSHLOGIN=... $0 SCRIPT N OUT.mp4 [RENDER OPTIONS...]" >&2; exit 64; }
[ $# -ge 3 ] || usage
[ -n "${SSHLOGIN:-}" ] || { echo "error: set SSHLOGIN to the workers (GNU parallel's --sshlogin, e.g. 2/w1.example.com,2/w2.example.com)" >&2; exit 64; }
script=$1 n=$2 out=$3
shift 3
case $n in '' | *[!0-9]*) usage ;; esac
[ "$n" -ge 1 ] || usage
mkdir -p out logs

basefiles=(--basefile "$script")
for f in ${FILES:-}; do basefiles+=(--basefile "$f"); done
ssh=()
if [ -n "${SSH:-}" ]; then ssh=(--ssh "$SSH"); fi
opts=""
if [ $# -gt 0 ]; then opts=$(printf ' %q' "$@"); fi
# On the worker: out/ for the segment, its messages on stderr (parallel prints them here,
# tagged with the shard, and they are kept in logs/).
cmd="mkdir -p out && $(printf '%q ' "${CHARTSCENE:-chartscene}" "$script")--shard {}/$n -o out/seg-{}.mp4$opts"
if ! parallel "${ssh[@]}" --sshlogin "$SSHLOGIN" --workdir "${WORKDIR:-/tmp/chartscene-$(id -un)-$$}" "${basefiles[@]}" --return out/seg-{}.mp4 --cleanup \
  --tagstring 'shard {}' --halt now,fail=1 --joblog logs/joblog "$cmd" ::: $(seq 1 "$n") 2> >(tee logs/shards.log >&2) </dev/null; then
  echo "error: a shard failed (logs/joblog, logs/shards.log); nothing joined" >&2
  exit 1
fi
chartscene concat "$out" $(seq -f 'out/seg-%g.mp4' 1 "$n")

#!/usr/bin/env bash
# Kubernetes: renders SCRIPT as an Indexed Job of N completions (each pod one shard,
# --shard auto/N from JOB_COMPLETION_INDEX), then joins the segments in a second Job.
#
#   scripts/recipes/k8s-indexed-job.sh SCRIPT N OUT.mp4 [RENDER OPTIONS...]
#
# Both Jobs run chartscene from IMAGE (chartscene, its assets, ffmpeg, sh and seq) in /work, a volume
# from the PersistentVolumeClaim CLAIM that holds SCRIPT and its files (paths relative to
# /work) and receives out/seg-1.mp4 … out/seg-N.mp4 and OUT. Here it makes out/ and logs/:
# the manifests (logs/k8s-shards.yaml, logs/k8s-concat.yaml) and, once the Jobs are done,
# their pods' output (logs/shards.log, logs/concat.log). The join is `chartscene concat`,
# which refuses the set unless it is every shard 1 … N of one render. Any N works.
#
# Environment: IMAGE (default registry.example.com/chartscene:latest), CLAIM (default
# chartscene-work), NAME (the Job's name; default chartscene-shards; a Job of that name
# is replaced), PARALLELISM (pods at once; default N), TIMEOUT (seconds to wait for each
# Job; default 86400), DRY_RUN=1 (write the manifests, apply nothing).
set -euo pipefail
usage() { echo "usage: $0 SCRIPT N OUT.mp4 [RENDER OPTIONS...]" >&2; exit 64; }
[ $# -ge 3 ] || usage
script=$1 n=$2 out=$3
shift 3
case $n in '' | *[!0-9]*) usage ;; esac
[ "$n" -ge 1 ] || usage
image=${IMAGE:-registry.example.com/chartscene:latest}
claim=${CLAIM:-chartscene-work}
name=${NAME:-chartscene-shards}
mkdir -p out logs

# A string as JSON (the container's command is a JSON list, which is YAML too).
json() { local s=$1; s=${s//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
opts=""
if [ $# -gt 0 ]; then opts=$(printf ' %q' "$@"); fi
render="mkdir -p out && exec chartscene $(printf '%q' "$script") --shard auto/$n -o out/seg-\$((JOB_COMPLETION_INDEX + 1)).mp4$opts"
join="exec chartscene concat $(printf '%q' "$out") \$(seq -f 'out/seg-%g.mp4' 1 $n)"

manifest() { # NAME COMMAND [INDEXED]
  cat <<YAML
apiVersion: batch/v1
kind: Job
metadata:
  name: $1
spec:
$(if [ -n "${3:-}" ]; then printf '  completionMode: Indexed\n  completions: %s\n  parallelism: %s\n  backoffLimit: %s\n' "$n" "${PARALLELISM:-$n}" $((2 * n)); else printf '  backoffLimit: 0\n'; fi)
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: chartscene
          image: $image
          workingDir: /work
          command: ["sh", "-c", $(json "$2")]
          resources:
            requests: { cpu: "2", memory: 2Gi }
          volumeMounts:
            - { name: work, mountPath: /work }
      volumes:
        - name: work
          persistentVolumeClaim: { claimName: $claim }
YAML
}
manifest "$name" "$render" indexed > logs/k8s-shards.yaml
manifest "$name-concat" "$join" > logs/k8s-concat.yaml
if [ "${DRY_RUN:-}" = 1 ]; then echo "wrote logs/k8s-shards.yaml and logs/k8s-concat.yaml"; exit 0; fi

# Waits for a Job to complete; fails when it failed or took too long.
await() {
  local deadline=$((SECONDS + ${TIMEOUT:-86400})) state
  while :; do
    state=$(kubectl get job "$1" -o 'jsonpath={.status.conditions[?(@.status=="True")].type}')
    case " $state " in
      *" Complete "*) return 0 ;;
      *" Failed "*) echo "error: Job $1 failed (kubectl describe job $1)" >&2; return 1 ;;
    esac
    [ $SECONDS -lt $deadline ] || { echo "error: Job $1 did not complete within ${TIMEOUT:-86400} s" >&2; return 1; }
    sleep 5
  done
}
kubectl delete job "$name" "$name-concat" --ignore-not-found >/dev/null
kubectl apply -f logs/k8s-shards.yaml
status=0
await "$name" || status=1
kubectl logs -l "job-name=$name" --prefix --tail=-1 > logs/shards.log 2>&1 || true
[ $status = 0 ] || exit 1
kubectl apply -f logs/k8s-concat.yaml
await "$name-concat" || status=1
kubectl logs "job/$name-concat" > logs/concat.log 2>&1 || true
[ $status = 0 ] || { cat logs/concat.log >&2; exit 1; }
echo "joined $out"

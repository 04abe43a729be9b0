#!/usr/bin/env bash
# Sweep points in parallel and over MPI: a 64-point sweep of the default scenario (its
# two algorithms x 32 sizes, 8-256 MiB per GPU), wall time with --jobs 1 vs --jobs 2
# (target >= 1.8x on two free cores) and under mpirun -n 2 vs --jobs 2 (overhead under
# 5 %). Prints the load average with the figures (other work on the machine slows the
# parallel runs most). Fails only when the outputs differ between the ways of running.
# Each way runs FABRICLAB_BENCH_REPEAT times (default 3), the ways taking turns, and the
# shortest time counts: on a shared machine the minimum is the least disturbed.
#   bench_sweep.sh CLI SCENARIO [MPIEXEC]
set -euo pipefail
cli=$1
scenario=$2
mpiexec=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sizes=$(seq 8 8 256 | sed 's/$/ MiB/' | paste -sd, -)
args=(run "$scenario" --quiet --sweep "workload.collective.size=$sizes")

seconds() {  # wall seconds of a command
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
same() {  # JSON equal apart from wall times
  python3 - "$1" "$2" <<'PY'
import json, sys
def strip(j):
    for p in j.get("sweep", []):
        p["results"]["engine"].pop("wall_seconds", None)
    return j
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
}

repeat=${FABRICLAB_BENCH_REPEAT:-3}
minimum() { tr ' ' '\n' | grep . | sort -g | head -1; }
if [ -n "$mpiexec" ]; then
  root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  # One machine, no network: shared memory only, unless the caller chose transports.
  # Open MPI otherwise probes UCX and the network (MPI_Init 0.4 s instead of 0.17 s).
  export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
fi

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
all1="" all2="" allm=""
for r in $(seq "$repeat"); do
  t=$(seconds "$cli" "${args[@]}" --jobs 1 --json "$work/j1.json"); all1="$all1 $t"
  t=$(seconds "$cli" "${args[@]}" --jobs 2 --json "$work/j2.json"); all2="$all2 $t"
  same "$work/j1.json" "$work/j2.json" || { echo "FAIL: --jobs 2 JSON differs from --jobs 1"; exit 1; }
  if [ -n "$mpiexec" ]; then
    t=$(seconds "$mpiexec" -n 2 "${root[@]}" "$cli" "${args[@]}" --json "$work/m2.json"); allm="$allm $t"
    same "$work/j1.json" "$work/m2.json" || { echo "FAIL: mpirun JSON differs from --jobs 1"; exit 1; }
  fi
done
t1=$(echo "$all1" | minimum); t2=$(echo "$all2" | minimum)
echo "--jobs 1: ${t1} s (runs:${all1})"
echo "--jobs 2: ${t2} s (runs:${all2})"
awk -v a="$t1" -v b="$t2" 'BEGIN { s = a / b; printf "speed-up %.2fx (target >= 1.8x): %s\n", s, (s >= 1.8) ? "met" : "missed" }'
if [ -n "$mpiexec" ]; then
  tm=$(echo "$allm" | minimum)
  echo "mpirun -n 2: ${tm} s (runs:${allm})"
  awk -v a="$tm" -v b="$t2" 'BEGIN { o = (a / b - 1) * 100; printf "MPI overhead %.1f %% over --jobs 2 (target < 5 %%): %s\n", o, (o < 5) ? "met" : "missed" }'
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

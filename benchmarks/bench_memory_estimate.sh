#!/usr/bin/env bash
# The run's memory estimate (core/sim/memory_estimate.cpp) against what the run takes:
# point 0 of every bundled scenario on one thread, its estimate (the refusal message of
# run.memory_limit = 1 MiB names it) beside the peak resident set (GNU time's %M, which
# includes the process' libraries). Prints estimate / RSS per scenario and the range.
# Fails when a run exceeds its estimate: the estimate is meant as a bound.
#   bench_memory_estimate.sh CLI SCENARIO_DIR
set -uo pipefail
cli=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || { echo "bench_memory_estimate: needs GNU time (/usr/bin/time)" >&2; exit 1; }

to_mib() {  # "1.5 GiB" -> MiB
  awk -v v="$1" -v u="$2" 'BEGIN { f = (u == "KiB") ? 1/1024 : (u == "MiB") ? 1 : (u == "GiB") ? 1024 : (u == "TiB") ? 1048576 : 1/1048576; printf "%.1f", v * f }'
}

printf '%-36s %12s %10s %8s %8s\n' scenario estimate_MiB rss_MiB ratio wall_s
over=0
ratios=()
for f in "$dir"/*.yaml; do
  name=$(basename "$f" .yaml)
  msg=$("$cli" run "$f" --point 0 --threads 1 --jobs 1 --quiet --set "run.memory_limit=1 MiB" 2>&1)
  read -r value unit < <(sed -n 's/.*estimated peak of \([0-9.]*\) \([KMGT]*i*B\).*/\1 \2/p' <<<"$msg")
  if [ -z "${value:-}" ]; then echo "$name: no estimate in: $msg" >&2; continue; fi
  est=$(to_mib "$value" "$unit")
  if ! /usr/bin/time -f "%M %e" -o "$work/time" "$cli" run "$f" --point 0 --threads 1 --jobs 1 --quiet \
       --json "$work/out.json" >/dev/null 2>"$work/err"; then
    echo "$name: run failed: $(tail -1 "$work/err")" >&2; over=1; continue
  fi
  read -r kib wall <"$work/time"
  rss=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
  ratio=$(awk -v e="$est" -v r="$rss" 'BEGIN { printf "%.2f", e / r }')
  ratios+=("$ratio")
  flag=""
  if awk -v e="$est" -v r="$rss" 'BEGIN { exit !(r > e) }'; then flag="  <- over its estimate"; over=1; fi
  printf '%-36s %12s %10s %8s %8s%s\n' "$name" "$est" "$rss" "$ratio" "$wall" "$flag"
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "estimate / RSS over %d scenarios: min %.2f, median %.2f, max %.2f\n", NR, a[1], a[int((NR + 1) / 2)], a[NR] }'
exit $over

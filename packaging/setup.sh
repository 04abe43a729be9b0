#!/usr/bin/env bash
# FabricLab set-up: installs missing Debian packages, configures and builds (Release,
# ccache when present), then runs what was asked:
#   packaging/setup.sh run   [ARGS...]  the main job: the GUI on the default scenario, or
#                                       headless, the CLI writing its JSON and HTML report
#   packaging/setup.sh test             build everything and run the test suite (ctest)
#   packaging/setup.sh bench            run the benchmarks (ctest label "bench")
#   packaging/setup.sh build            only install and build
#   packaging/setup.sh package          build the Debian package, build/fabriclab_VERSION_ARCH.deb
#                                       (install it with: apt install ./build/fabriclab_*.deb)
#   packaging/setup.sh sanitize         ASan+UBSan build of everything (build-asan), whole test suite
#   packaging/setup.sh tsan             ThreadSanitizer build (build-tsan), the multi-threaded tests
#   packaging/setup.sh fuzz [SECONDS]   libFuzzer targets (Clang, build-fuzz), each run SECONDS (60)
#                                       (FABRICLAB_FUZZ_TARGETS="fuzz_a fuzz_b": only those)
# FABRICLAB_CXX=clang++ picks the compiler of any mode (default build folder then build-clang).
# Idempotent: nothing is installed or printed about packages when all are present.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${FABRICLAB_BUILD_DIR:-$here/build}"
mode="${1:-build}"; [ $# -gt 0 ] && shift
compiler=()
if [ -n "${FABRICLAB_CXX:-}" ]; then
  compiler=(-DCMAKE_CXX_COMPILER="$FABRICLAB_CXX")
  [ -z "${FABRICLAB_BUILD_DIR:-}" ] && build="$here/build-$(basename "${FABRICLAB_CXX%++}")"
fi

packages=(
  build-essential cmake ccache pkg-config
  qt6-base-dev qt6-svg-dev qt6-qpa-plugins libgl-dev
  libqcustomplot-dev libyaml-cpp-dev libboost-dev libtbb-dev libomp-dev
  nlohmann-json3-dev libcli11-dev
  xvfb xauth
  dpkg-dev file lintian desktop-file-utils appstream librsvg2-bin shared-mime-info
  libopenmpi-dev openmpi-bin
  chromium  # tests: the HTML report rendered in a real browser (test_report_browser)
)
packages+=(libyaml-dev)  # libyaml's event parser checks YAML before yaml-cpp (core/scenario/bounded_yaml.h)
# Clang, its libFuzzer and sanitizer runtimes: the fuzz mode and FABRICLAB_CXX=clang++.
case "$mode:${FABRICLAB_CXX:-}" in fuzz:* | *:clang*) packages+=(clang libclang-rt-dev) ;; esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# Checking builds, each in its own folder, never part of `test`: -O1 -g with assertions,
# sanitizers on every target, the first report fatal. Suppressions (third-party code
# only) are in packaging/sanitizers/.
checked_build() {  # DIR SANITIZERS [CMAKE ARGS...] [-- TARGETS...]
  local dir=$1 san=$2; shift 2
  local args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && shift && targets=(--target "$@")
  # Clang with lld: linking ~80 sanitised test programs with full debug info is much faster.
  case "${compiler[*]}" in *clang*) command -v ld.lld >/dev/null && args+=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld) ;; esac
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DFABRICLAB_LTO=OFF \
      -DFABRICLAB_SANITIZE="$san" "${launcher[@]}" "${compiler[@]}" "${args[@]}" >/dev/null
  fi
  echo "setup: building $dir (log: $dir/build.log)" >&2
  cmake --build "$dir" -j2 "${targets[@]}" -- --no-print-directory >"$dir/build.log" 2>&1 || { tail -n 60 "$dir/build.log" >&2; exit 1; }
}
supp="$here/packaging/sanitizers"
case "$mode" in
  sanitize)
    checked_build "${FABRICLAB_BUILD_DIR:-$here/build-asan}" address,undefined
    export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp"
    export QT_QPA_PLATFORM=offscreen
    # Sanitized -O1 code runs several times slower: Qt Test's 5-minute limit per test
    # function and CTest's 10 minutes per executable would cut the large MoE runs short.
    export QTEST_FUNCTION_TIMEOUT=3600000
    cd "${FABRICLAB_BUILD_DIR:-$here/build-asan}" && exec ctest --output-on-failure -LE bench -j2 --timeout 3600 "$@" ;;
  tsan)
    # The tests that run the engine on several threads (run.threads = 2: engine, network,
    # token pipeline, reduction log) and the GUI's run controller (runs and sweeps on a
    # worker thread); then the sanitised CLI itself runs sweep points at once (--jobs 2,
    # each on 2 threads). test_cli_sweeps runs the sanitised CLI's sweeps (--jobs, --point)
    # started with posix_spawn: QProcess's clone() stops Clang 14's TSan runtime (CHECK
    # failed in ForkAfter; tests/common/spawn_process.h).
    tsan_dir="${FABRICLAB_BUILD_DIR:-$here/build-tsan}"
    checked_build "$tsan_dir" thread -- \
      fabriclab-cli test_engine test_network test_token_pipeline test_reduction_log test_run_controller test_cli_sweeps
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp"
    export QT_QPA_PLATFORM=offscreen QTEST_FUNCTION_TIMEOUT=3600000
    (cd "$tsan_dir" && ctest --output-on-failure -j2 --timeout 3600 -R 'test_(engine|network|token_pipeline|reduction_log|run_controller|cli_sweeps)$' "$@")
    tsan_cli() {  # JOBS SCENARIO [--set ...]: JOBS sweep points at once, each on up to two threads
      echo "setup: fabriclab-cli run ${*:2} --jobs $1 --threads 2 under ThreadSanitizer" >&2
      "$tsan_dir/app/fabriclab-cli" run "$here/scenarios/$2" "${@:3}" --jobs "$1" --threads 2 --quiet --json "$tsan_dir/tsan-cli.json"
    }
    tsan_cli 2 default.yaml --set "workload.collective.size=4 MiB"
    tsan_cli 1 nvl32-moe-schemes.yaml --set "workload.moe.tokens_per_gpu=32"  # 16 partitions on 2 threads
    tsan_cli 2 nvl32-moe-schemes.yaml --set "workload.moe.tokens_per_gpu=32"
    # Under mpirun rank 0 answers the ranks on one thread and runs points on another.
    if grep -q "FABRICLAB_MPI:BOOL=ON" "$tsan_dir/CMakeCache.txt" && command -v mpirun >/dev/null; then
      echo "setup: mpirun -n 2 fabriclab-cli run default.yaml (3 points) under ThreadSanitizer" >&2
      root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
      OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader \
        mpirun -n 2 "${root[@]}" -x TSAN_OPTIONS "$tsan_dir/app/fabriclab-cli" run "$here/scenarios/default.yaml" \
        --sweep "workload.collective.size=1 MiB,2 MiB,4 MiB" --quiet --json "$tsan_dir/tsan-mpi.json"
    fi ;;
  fuzz)
    seconds="${1:-60}"
    dir="${FABRICLAB_BUILD_DIR:-$here/build-fuzz}"
    [ ${#compiler[@]} -eq 0 ] && compiler=(-DCMAKE_CXX_COMPILER=clang++)
    checked_build "$dir" address,undefined -DFABRICLAB_WITH_QT=OFF -DFABRICLAB_FUZZ=ON \
      -- fuzz_scenario fuzz_quantity fuzz_routing_trace fuzz_wsc_trace
    export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    declare -A seeds=(
      [fuzz_scenario]="$here/scenarios $here/tests/data/good $here/tests/data/bad $here/tests/data/fuzz"
      [fuzz_quantity]="$here/fuzz/seeds/quantity"
      [fuzz_routing_trace]="$here/fuzz/seeds/routing_trace $here/tests/data/moe"
      [fuzz_wsc_trace]="$here/fuzz/seeds/wsc_trace $here/tests/data/wsc"
    )
    status=0
    for t in ${FABRICLAB_FUZZ_TARGETS:-fuzz_scenario fuzz_quantity fuzz_routing_trace fuzz_wsc_trace}; do
      # New inputs go to build-fuzz/corpus/<target>; crashes, hangs (-timeout) and
      # out-of-memory inputs (-rss_limit_mb) to build-fuzz/artifacts/: copy each reproducer
      # into tests/data/fuzz/ once fixed (test_cli checks them).
      mkdir -p "$dir/corpus/$t" "$dir/artifacts"
      echo "setup: fuzzing $t for ${seconds}s" >&2
      dict=(); [ -f "$here/fuzz/$t.dict" ] && dict=(-dict="$here/fuzz/$t.dict")
      # shellcheck disable=SC2086  # seeds[] holds several folders
      "$dir/fuzz/$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/$t-" "${dict[@]}" "$dir/corpus/$t" ${seeds[$t]} >"$dir/$t.log" 2>&1 || status=1
      grep -E "^#[0-9]+ +(DONE|INITED)|stat::|ERROR|SUMMARY|Test unit written" "$dir/$t.log" >&2 || true
    done
    exit $status ;;
esac

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${compiler[@]}" >/dev/null
fi
cmake --build "$build" -j2 -- --no-print-directory >"$build/build.log" 2>&1 || { tail -n 60 "$build/build.log" >&2; exit 1; }

case "$mode" in
  build) ;;
  run)
    # With a display: the desktop app on the default scenario. Headless (no DISPLAY or
    # WAYLAND_DISPLAY, or FABRICLAB_HEADLESS=1): the same scenario through the CLI,
    # printing a summary and writing its JSON and HTML report into build/.
    if [ -z "${FABRICLAB_HEADLESS:-}" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$build/app/fabriclab" ]; then
      exec "$build/app/fabriclab" "$@"
    fi
    exec "$build/app/fabriclab-cli" run "$here/scenarios/default.yaml" \
      --json "$build/default-results.json" --report "$build/default-report.html" "$@" ;;
  test)
    cd "$build" && exec ctest --output-on-failure -LE bench -j2 "$@" ;;
  bench)
    cd "$build" && exec ctest --output-on-failure -L bench -V "$@" ;;
  package)
    # CPack's DEB generator (packaging/debian_package.cmake); prints the package's path.
    (cd "$build" && cpack -G DEB) >"$build/cpack.log" 2>&1 || { tail -n 40 "$build/cpack.log" >&2; exit 1; }
    ls -t "$build"/fabriclab_*.deb | head -n 1 ;;
  *) echo "usage: packaging/setup.sh [build|run|test|bench|package|sanitize|tsan|fuzz] [ARGS...]" >&2; exit 2 ;;
esac

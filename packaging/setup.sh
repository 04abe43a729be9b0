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
# Idempotent: nothing is installed or printed about packages when all are present.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${FABRICLAB_BUILD_DIR:-$here/build}"
mode="${1:-build}"; [ $# -gt 0 ] && shift

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
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
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
  *) echo "usage: packaging/setup.sh [build|run|test|bench|package] [ARGS...]" >&2; exit 2 ;;
esac

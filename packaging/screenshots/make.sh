#!/usr/bin/env bash
# Regenerates the AppStream screenshots (io.github.fabriclab.FabricLab.metainfo.xml.in) with a
# built GUI: packaging/screenshots/make.sh [BUILD_DIR] (default build). Each scenario runs
# under Xvfb with a fresh configuration (default layout, no restored geometry); the window
# takes 95 % of the screen, so a 1347x842 screen gives 1280x800 pictures.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
gui="${1:-$here/build}/app/fabriclab"
declare -A shots=(
  [ring-vs-nvls-dgx-h100]=default
  [moe-fusion-nvl32]=nvl32-moe-fusion-demo
  [wafer-mapping-4x4]=wsc-4x4-paper
)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for name in "${!shots[@]}"; do
  XDG_CONFIG_HOME="$scratch/config-$name" XDG_DATA_HOME="$scratch/data-$name" \
    xvfb-run -a -s "-screen 0 1347x842x24" "$gui" --open "$here/scenarios/${shots[$name]}.yaml" \
    --screenshot "$here/packaging/screenshots/$name.png"
done
file "$here"/packaging/screenshots/*.png

#!/usr/bin/env bash
# Build Flexim and start it on the slider-crank example.
#
#   ./run.sh                 install missing packages, build, open the GUI
#   ./run.sh --headless      same build, but run the example with flexim-cli and write
#                            results/slider_crank_rigid.csv
#   ./run.sh [--headless] [--] EXTRA...   EXTRA arguments are passed on to flexim / flexim-cli
#
# Examples:
#   ./run.sh --run --screenshot shot.png --quit        (GUI automation)
#   ./run.sh --headless --t-end 2 --integrator gen-alpha
#   xvfb-run -a ./run.sh                               (GUI on a machine without a display)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source scripts/common.sh

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

headless=0
while (($# > 0)); do
  case "$1" in
    --headless) headless=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) break ;; # first unknown argument: it and everything after pass through
  esac
done

model="resources/examples/slider_crank_rigid.json"

if ((!headless)) && [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
  flexim_die "no display found (DISPLAY is not set), so the GUI cannot open. Either
    ./run.sh --headless           run the example with flexim-cli and write a CSV, or
    xvfb-run -a ./run.sh ...      run the GUI on a virtual display (e.g. with --run --screenshot FILE.png --quit)"
fi

flexim_ensure_packages
flexim_configure
if ((headless)); then
  flexim_build flexim-cli
else
  flexim_build flexim
fi

[[ -f "$model" ]] || flexim_warn "$model does not exist (yet)"

if ((headless)); then
  mkdir -p results
  flexim_log "running: flexim-cli run $model --out results/slider_crank_rigid.csv $*"
  exec "$FLEXIM_BUILD_DIR/app/flexim-cli" run "$model" --out results/slider_crank_rigid.csv "$@"
else
  flexim_log "starting: flexim $model $*"
  exec "$FLEXIM_BUILD_DIR/app/flexim" "$model" "$@"
fi

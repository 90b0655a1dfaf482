#!/usr/bin/env bash
# Flexible-body benchmark: time per step of the flexible slider-crank with the
# committed ~2 000-node rod and with the same rod meshed with ~100 000 nodes (same 14 modes).
#
#   scripts/bench_flexible.sh [BUILD_DIR]   (default BUILD_DIR: $FLEXIM_BUILD_DIR or <repo>/build-bench)
#
# 1. Builds bench_flexible (and flexim-cli when the big rod has to be made) in BUILD_DIR.
# 2. Makes the big rod unless it is there already: scripts/make_fixtures.py rod-mesh NODES DIR
#    (gmsh + flexim-cli reduce, 6 rigid + 8 elastic modes; ~50 s and 3.4 GB peak for 100 000
#    nodes; tests/data/fe/rod/README.md). Nothing is written into the repository.
# 3. Runs bench_flexible with the committed rod and the big one: gen-alpha (h = 1e-5), IDA
#    (hmax = 1e-5) and IDA (free step), 0.1 s each, 3 interleaved runs per case, medians.
#
# Environment (all optional):
#   BENCH_FLEX_NODES=100000   target node count of the big rod (99 465 nodes for 100000)
#   BENCH_FLEX_DIR=/tmp/rodbig  where the big rod is made and kept (reused when present: the
#                             file DIR/rod-mesh.nodes records NODES; a lone rod_round_k*_n*.frb
#                             without it is reused as well)
#   BENCH_FLEX_ARGS="..."     extra arguments for bench_flexible (e.g. "--repeat 5 --t-end 0.2",
#                             "--only gen-alpha")
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-${FLEXIM_BUILD_DIR:-$ROOT/build-bench}}"
NODES="${BENCH_FLEX_NODES:-100000}"
DIR="${BENCH_FLEX_DIR:-/tmp/rodbig}"
read -r -a EXTRA <<<"${BENCH_FLEX_ARGS:-}"

log() { printf '==> %s\n' "$*" >&2; }
die() {
  printf '==> ERROR: %s\n' "$*" >&2
  exit 1
}

[[ "$NODES" =~ ^[0-9]+$ ]] || die "BENCH_FLEX_NODES must be a number"
[[ -f "$BUILD/CMakeCache.txt" ]] ||
  die "no build in $BUILD; first: cmake -S . -B $BUILD -DFLEXIM_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release"
BUILD="$(cd "$BUILD" && pwd)"
grep -q 'CMAKE_BUILD_TYPE:STRING=Release' "$BUILD/CMakeCache.txt" ||
  log "WARNING: $BUILD is not a Release build; the figures will not be representative"

BENCH="$BUILD/tests/benchmarks/bench_flexible"
if [[ ! -x "$BENCH" || "$ROOT/tests/benchmarks/bench_flexible.cpp" -nt "$BENCH" ]]; then
  log "building bench_flexible in $BUILD"
  cmake --build "$BUILD" -j"$(nproc)" --target bench_flexible >&2
fi

# ---- the big rod
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
shopt -s nullglob
frbs=("$DIR"/rod_round_k*_n*.frb)
FRB=""
if [[ -f "$DIR/rod-mesh.nodes" && "$(head -1 "$DIR/rod-mesh.nodes")" == "$NODES" ]]; then
  FRB="$(sed -n 2p "$DIR/rod-mesh.nodes")"
  [[ -f "$FRB" ]] || FRB=""
elif [[ ! -f "$DIR/rod-mesh.nodes" && ${#frbs[@]} -eq 1 ]]; then
  FRB="${frbs[0]}"
  log "reusing $FRB (made outside this script; remove it to make a new one)"
fi
if [[ -z "$FRB" ]]; then
  command -v gmsh >/dev/null || die "needs gmsh (Debian package gmsh) to make the big rod"
  command -v python3 >/dev/null || die "needs python3"
  CLI="${FLEXIM_CLI:-$BUILD/app/flexim-cli}"
  if [[ ! -x "$CLI" ]]; then
    log "building flexim-cli in $BUILD (for the reduction of the big rod)"
    cmake --build "$BUILD" -j"$(nproc)" --target flexim-cli >&2
    CLI="$BUILD/app/flexim-cli"
  fi
  rm -f "$DIR/rod-mesh.nodes"
  log "making the ~$NODES-node rod in $DIR (scripts/make_fixtures.py rod-mesh; ~50 s and 3.4 GB for 100 000 nodes)"
  start=$(date +%s)
  FLEXIM_CLI="$CLI" python3 "$ROOT/scripts/make_fixtures.py" rod-mesh "$NODES" "$DIR" | tee "$DIR/rod-mesh.log" >&2 ||
    die "rod-mesh failed"
  FRB="$(sed -n 's/^  reduce: .* written \(.*\.frb\)$/\1/p' "$DIR/rod-mesh.log" | tail -1)"
  [[ -n "$FRB" && -f "$FRB" ]] || die "rod-mesh wrote no .frb (see $DIR/rod-mesh.log)"
  printf '%s\n%s\n' "$NODES" "$FRB" >"$DIR/rod-mesh.nodes"
  log "big rod made in $(($(date +%s) - start)) s: $FRB"
fi

# ---- the benchmark
log "running bench_flexible (committed rod + $(basename "$FRB"))"
"$BENCH" --rod "$FRB" "${EXTRA[@]}"

#!/usr/bin/env bash
# Regenerates the .frb seeds in tests/fuzz/corpus/frb, all written by Flexim's own writer:
#
#   rod.frb, arm.frb, kinds.frb   hand-made bodies of tests/fuzz/make_frb_seeds.cpp (compiled here
#                                 with g++ from the writer's sources); rod.frb is the rod that the
#                                 fuzz_model seeds name
#   c3d8_free.frb                 flexim-cli reduce c3d8_mat.inp --modes 2 (tests/data/fe/tiny: one
#                                 C3D8, free-free, 6 rigid + 2 elastic modes)
#   block_cb.frb                  flexim-cli reduce of two C3D8 (the deck below), Craig-Bampton
#                                 with one rigid interface END0 (6 constraint + 2 fixed-interface)
#
#   tests/fuzz/make_frb_seeds.sh [BUILD_DIR]     (flexim-cli from BUILD_DIR; default build/)
#
# Each file is about 0.4-12 KB. The reduce outputs carry their creation time, so a rerun changes
# those bytes only.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-${FLEXIM_BUILD_DIR:-$ROOT/build}}"
CLI="$BUILD/app/flexim-cli"
OUT="$ROOT/tests/fuzz/corpus/frb"
[[ -x "$CLI" ]] || { echo "make_frb_seeds.sh: $CLI not built (cmake --build $BUILD --target flexim-cli)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

version="$(sed -n 's/^project(Flexim VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")"
g++ -std=c++20 -O1 -I"$ROOT" -isystem /usr/include/eigen3 -DFLEXIM_VERSION="\"${version:-0.0.0}\"" \
  "$ROOT/tests/fuzz/make_frb_seeds.cpp" "$ROOT/io/fe/reduced_body_file.cpp" "$ROOT/io/sha256.cpp" \
  "$ROOT/core/fe/invariants.cpp" -o "$work/make_frb_seeds"
"$work/make_frb_seeds" "$OUT"

# relative source paths, so that the files do not name this checkout
(cd "$ROOT/tests/data/fe/tiny" && "$CLI" reduce c3d8_mat.inp --modes 2 --out "$OUT/c3d8_free.frb" >/dev/null)

cat >"$work/block.inp" <<'DECK'
** two C3D8 in a row along x, 0.2 x 0.1 x 0.1 m, steel; node sets at both ends
*NODE
1, 0.0, 0.0, 0.0
2, 0.0, 0.1, 0.0
3, 0.0, 0.1, 0.1
4, 0.0, 0.0, 0.1
5, 0.1, 0.0, 0.0
6, 0.1, 0.1, 0.0
7, 0.1, 0.1, 0.1
8, 0.1, 0.0, 0.1
9, 0.2, 0.0, 0.0
10, 0.2, 0.1, 0.0
11, 0.2, 0.1, 0.1
12, 0.2, 0.0, 0.1
*ELEMENT, TYPE=C3D8, ELSET=BLOCK
1, 1, 5, 6, 2, 4, 8, 7, 3
2, 5, 9, 10, 6, 8, 12, 11, 7
*NSET, NSET=END0
1, 2, 3, 4
*NSET, NSET=END1
9, 10, 11, 12
*MATERIAL, NAME=STEEL
*ELASTIC
2.1e11, 0.3
*DENSITY
7850
*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL
DECK
(cd "$work" && "$CLI" reduce block.inp --modes 2 --interface END0 --out "$OUT/block_cb.frb" >/dev/null)
ls -l "$OUT"

#!/usr/bin/env bash
# Regenerates the gmsh seeds of fuzz_msh in tests/fuzz/corpus/msh with gmsh itself (Debian's
# gmsh, scripts/packages.txt): tiny meshes of a 0.1 m cube in the four volume element types the
# reader imports, with physical groups (node sets) and the $Entities section:
#
#   cube_tet4.msh    tetrahedra, first order, physical surfaces END0/END1 and volume CUBE
#   cube_tet10.msh   the same, second order
#   cube_hex8.msh    one hexahedron (transfinite, recombined), physical surface END0
#   cube_hex20.msh   the same, 20-node (incomplete second order); also 2-D boundary elements
#
#   tests/fuzz/make_msh_seeds.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/tests/fuzz/corpus/msh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

mesh() {  # NAME ORDER HEX
  cat >"$work/$1.geo" <<GEO
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 0.1, 0.1, 0.1};
Physical Surface("END0") = {1};
Physical Surface("END1") = {2};
Physical Volume("CUBE") = {1};
Mesh.MeshSizeMin = 0.1;
Mesh.MeshSizeMax = 0.1;
Mesh.ElementOrder = $2;
Mesh.SecondOrderIncomplete = 1;
Mesh.MshFileVersion = 4.1;
Mesh.Binary = 0;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
If ($3)
  Transfinite Curve {:} = 2;
  Transfinite Surface {:};
  Recombine Surface {:};
  Transfinite Volume {1};
EndIf
GEO
  gmsh -3 "$work/$1.geo" -o "$OUT/$1.msh" >/dev/null
}
mesh cube_tet4 1 0
mesh cube_tet10 2 0
mesh cube_hex8 1 1
mesh cube_hex20 2 1
ls -l "$OUT"

#!/usr/bin/env bash
# Makes the visual meshes of the examples with gmsh (Debian package gmsh): CAD-like surfaces in
# millimetres, exported as STL, as a user's CAD system would hand them over.
#   resources/examples/meshes/crank.stl: a crank arm with two hubs, 150 mm between hub centres,
#   its origin at the first hub (the crank pivot), the arm along +x, hub axes along z.
set -euo pipefail
out="${1:-resources/examples/meshes}"
mkdir -p "$out"
geo="$(mktemp --suffix=.geo)"
trap 'rm -f "$geo"' EXIT
cat >"$geo" <<'GEO'
SetFactory("OpenCASCADE");
Box(1) = {0, -8, -5, 150, 16, 10};
Cylinder(2) = {0, 0, -9, 0, 0, 18, 14};
Cylinder(3) = {150, 0, -9, 0, 0, 18, 12};
BooleanUnion{ Volume{1}; Delete; }{ Volume{2, 3}; Delete; }
Mesh.MeshSizeMin = 2;
Mesh.MeshSizeMax = 6;
GEO
gmsh -2 "$geo" -format stl -o "$out/crank.stl" -v 1
echo "wrote $out/crank.stl"

#!/usr/bin/env python3
"""Write the static stress fixtures of tests/data/fe/stress/ (modal stress
recovery, core/fe/stress.h) and their CalculiX 2.20 results. Standard library only; needs ccx 2.20
and gmsh 4.8 (Debian). Run by developers, not by CI:

    scripts/make_stress_fixtures.py

Steel: E = 2.1e11 Pa, nu = 0.3 (rho = 7850 kg/m^3, unused by a static step); SI units.
Every job is one linear *STATIC step writing the nodal displacements (*NODE FILE U) and ccx's
nodal stresses (*EL FILE S: integration-point stresses extrapolated to the nodes and averaged
over the elements sharing a node) to the ASCII .frd; stresses only for the node set OUT (the
region the test compares, to keep the files small). Kept: <job>.inp, its mesh, <job>.frd.

Cantilever 0.4 x 0.04 x 0.02 m (x, y, z), clamped at x = 0 (face END0: u = 0), a tip load
P = 1000 N in -y at x = L spread equally over the nodes of the end face END1. Beam theory at the
root: M = P L = 400 N m, I = b h^3 / 12 = 1.0667e-7 m^4, M c / I = 75 MPa.
  cantilever_c3d10.inp    gmsh C3D10 (size 0.04: one or two elements through the section), mesh
                          cantilever_c3d10_mesh.inp (from cantilever.geo)
  cantilever_c3d20r.inp   structured 10 x 2 x 2 C3D20R (cells 0.04 x 0.02 x 0.01), mesh
                          cantilever_c3d20r_mesh.inp (ELSET BEAM)
  cantilever_c3d20.inp    structured 10 x 2 x 1 C3D20, mesh cantilever_c3d20_mesh.inp
  cantilever_c3d8i.inp    structured 10 x 2 x 1 C3D8I, mesh cantilever_c3d8i_mesh.inp
OUT = the nodes with 0.08 <= x <= 0.32 (two beam heights from the clamp and from the load).

Plate with a hole under tension, symmetric quarter: 0.1 x 0.05 m (x, y), thickness 0.005 m (z),
hole radius 0.01 m at the origin; symmetry u_x = 0 on x = 0 (XSYM), u_y = 0 on y = 0 (YSYM),
u_z = 0 on z = 0 (ZSYM: the mid-plane of a 0.01 m plate); u_x = 1e-5 m prescribed on x = 0.1
(LOAD): a nominal stress of about E * 1e-5 / 0.1 = 21 MPa, about 2.4 times that at the hole.
  plate_hole_c3d10.inp    gmsh C3D10 (size 0.025, 0.005 at the hole), mesh plate_hole_mesh.inp
OUT = all nodes with x <= 0.08.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_fixtures as mf  # noqa: E402  (run, gmsh, gmsh_inp_to_ccx, ccx)

OUT_DIR = os.path.join(mf.DATA, "stress")
MATERIAL = "*MATERIAL, NAME=STEEL\n*ELASTIC\n%s, %s\n*DENSITY\n%s\n" % (mf.E, mf.NU, mf.RHO)
L, H, B = 0.4, 0.04, 0.02  # cantilever length (x), height (y), width (z)
P = 1000.0  # tip load [N], -y

CANTILEVER_GEO = """// Cantilever 0.4 x 0.04 x 0.02 m, C3D10. Written by scripts/make_stress_fixtures.py.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 0.4, 0.04, 0.02};
e = 1e-6;
s0() = Surface In BoundingBox{-e, -e, -e, e, 1, 1};
s1() = Surface In BoundingBox{0.4-e, -e, -e, 0.4+e, 1, 1};
Physical Surface("END0") = {s0()};
Physical Surface("END1") = {s1()};
Physical Volume("BEAM") = {1};
Mesh.MeshSizeMax = 0.04;
Mesh.MeshSizeMin = 0.04;
Mesh.ElementOrder = 2;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "cantilever_gmsh.inp";
"""

PLATE_GEO = """// Quarter of a plate with a hole, C3D10. Written by scripts/make_stress_fixtures.py.
SetFactory("OpenCASCADE");
r = 0.01;
Box(1) = {0, 0, 0, 0.1, 0.05, 0.005};
Cylinder(2) = {0, 0, -0.001, 0, 0, 0.007, r};
BooleanDifference(3) = {Volume{1}; Delete;}{Volume{2}; Delete;};
e = 1e-6;
sx() = Surface In BoundingBox{-e, -e, -e, e, 1, 1};
sy() = Surface In BoundingBox{-e, -e, -e, 1, e, 1};
sz() = Surface In BoundingBox{-e, -e, -e, 1, 1, e};
sl() = Surface In BoundingBox{0.1-e, -e, -e, 0.1+e, 1, 1};
Physical Surface("XSYM") = {sx()};
Physical Surface("YSYM") = {sy()};
Physical Surface("ZSYM") = {sz()};
Physical Surface("LOAD") = {sl()};
Physical Volume("PLATE") = {3};
Mesh.MeshSizeMax = 0.025;
Mesh.MeshSizeMin = 0.005;
Field[1] = Distance;
hole() = Curve In BoundingBox{-e, -e, -e, r+e, r+e, 0.005+e};
Field[1].CurvesList = {hole()};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = 0.005;
Field[2].SizeMax = 0.025;
Field[2].DistMin = 0.001;
Field[2].DistMax = 0.025;
Background Field = 2;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.ElementOrder = 2;
Mesh.SaveGroupsOfNodes = 1;
General.NumThreads = 1;
Mesh 3;
Save "plate_hole_gmsh.inp";
"""

# Abaqus 20-node brick on a lattice of half cells: corners, then the mid-edge nodes of the edges
# 1-2, 2-3, 3-4, 4-1, 5-6, 6-7, 7-8, 8-5, 1-5, 2-6, 3-7, 4-8
HEX = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
HEX20_EDGES = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]


def structured_beam(cells, quadratic, title):
    """A *NODE and *ELEMENT (TYPE=@TYPE@, ELSET=BEAM) deck of the cantilever box cut into
    cells; node sets END0, END1 (faces x = 0, x = L) and OUT."""
    nx, ny, nz = cells
    ids, coords, elements = {}, {}, []

    def node(p):  # p: lattice point in half cells
        if p not in ids:
            ids[p] = len(ids) + 1
            coords[ids[p]] = (L * p[0] / (2 * nx), H * p[1] / (2 * ny), B * p[2] / (2 * nz))
        return ids[p]

    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                c = [(2 * (i + a), 2 * (j + b), 2 * (k + d)) for a, b, d in HEX]
                pts = c + ([tuple((u + v) // 2 for u, v in zip(c[p], c[q])) for p, q in HEX20_EDGES]
                           if quadratic else [])
                elements.append([node(p) for p in pts])
    s = "** %s, written by scripts/make_stress_fixtures.py\n*NODE, NSET=NALL\n" % title
    s += "".join("%d, %.15g, %.15g, %.15g\n" % (n, *x) for n, x in sorted(coords.items()))
    s += "*ELEMENT, TYPE=@TYPE@, ELSET=BEAM\n"
    for e, nodes in enumerate(elements, 1):
        first = [str(e)] + [str(n) for n in nodes[:15]]
        s += ", ".join(first) + (",\n" + ", ".join(map(str, nodes[15:])) if len(nodes) > 15 else "") + "\n"
    tol = 1e-9
    s += node_set("END0", [n for n, x in coords.items() if x[0] < tol])
    s += node_set("END1", [n for n, x in coords.items() if x[0] > L - tol])
    return s


def node_set(name, nodes):
    nodes = sorted(nodes)
    return "*NSET, NSET=%s\n" % name + "".join(
        ", ".join(map(str, nodes[i:i + 16])) + "\n" for i in range(0, len(nodes), 16))


def read_nodes(path):
    """{id: (x, y, z)} and {NSET name: [ids]} of a ccx mesh deck."""
    coords, sets, key = {}, {}, None
    with open(path) as f:
        for line in f:
            t = line.strip()
            if t.startswith("**") or not t:
                continue
            if t.startswith("*"):
                up = t.upper().replace(" ", "")
                key = None
                if up.startswith("*NODE") and not up.startswith("*NODEF") and not up.startswith("*NODEP"):
                    key = ("node", None)
                elif up.startswith("*NSET"):
                    name = [p.split("=")[1] for p in up.split(",") if p.startswith("NSET=")][0]
                    sets.setdefault(name, [])
                    key = ("nset", name)
                continue
            if key and key[0] == "node":
                v = t.split(",")
                coords[int(v[0])] = tuple(float(x) for x in v[1:4])
            elif key and key[0] == "nset":
                sets[key[1]] += [int(x) for x in t.split(",") if x.strip()]
    return coords, sets


def out_set(mesh_path, keep):
    coords, _ = read_nodes(mesh_path)
    return node_set("OUT", [n for n, x in coords.items() if keep(x)])


def static_deck(job, title, mesh, elset, boundary, load, extra=""):
    s = "*HEADING\n%s\n*INCLUDE, INPUT=%s\n%s%s*SOLID SECTION, ELSET=%s, MATERIAL=STEEL\n" % (
        title, mesh, extra, MATERIAL, elset)
    s += boundary + "*STEP\n*STATIC\n" + load
    s += "*NODE FILE\nU\n*EL FILE, NSET=OUT\nS, E\n*END STEP\n"
    with open(os.path.join(OUT_DIR, job + ".inp"), "w") as f:
        f.write(s)
    mf.ccx(OUT_DIR, job, (".frd",))
    print("  %s.frd: %d bytes" % (job, os.path.getsize(os.path.join(OUT_DIR, job + ".frd"))))


def tip_load(mesh_path):
    _, sets = read_nodes(mesh_path)
    end = sets["END1"]
    return "*CLOAD\nEND1, 2, %.15g\n" % (-P / len(end))


def in_out(x):
    return 0.08 - 1e-9 <= x[0] <= 0.32 + 1e-9


def make_cantilevers():
    d = OUT_DIR
    with open(os.path.join(d, "cantilever.geo"), "w") as f:
        f.write(CANTILEVER_GEO)
    mf.gmsh(d, "cantilever.geo")
    mesh = os.path.join(d, "cantilever_c3d10_mesh.inp")
    mf.gmsh_inp_to_ccx(os.path.join(d, "cantilever_gmsh.inp"), mesh)
    os.remove(os.path.join(d, "cantilever_gmsh.inp"))
    clamp = "*BOUNDARY\nEND0, 1, 3\n"
    static_deck("cantilever_c3d10", "cantilever, C3D10, tip load", os.path.basename(mesh), "BEAM", clamp,
                tip_load(mesh), out_set(mesh, in_out))

    for etype, cells in (("C3D20R", (10, 2, 2)), ("C3D20", (10, 2, 1)), ("C3D8I", (10, 2, 1))):
        text = structured_beam(cells, etype.startswith("C3D20"), "cantilever %d x %d x %d cells" % cells)
        mesh = os.path.join(d, "cantilever_%s_mesh.inp" % etype.lower())
        with open(mesh, "w") as f:
            f.write(text.replace("@TYPE@", etype))
        static_deck("cantilever_" + etype.lower(), "cantilever, %s, tip load" % etype, os.path.basename(mesh), "BEAM",
                    clamp, tip_load(mesh), out_set(mesh, in_out))


def make_plate():
    d = OUT_DIR
    with open(os.path.join(d, "plate_hole.geo"), "w") as f:
        f.write(PLATE_GEO)
    mf.gmsh(d, "plate_hole.geo")
    mesh = os.path.join(d, "plate_hole_mesh.inp")
    mf.gmsh_inp_to_ccx(os.path.join(d, "plate_hole_gmsh.inp"), mesh)
    os.remove(os.path.join(d, "plate_hole_gmsh.inp"))
    bc = "*BOUNDARY\nXSYM, 1, 1\nYSYM, 2, 2\nZSYM, 3, 3\n"
    static_deck("plate_hole_c3d10", "quarter plate with a hole, C3D10, tension", os.path.basename(mesh), "PLATE",
                bc, "*BOUNDARY\nLOAD, 1, 1, 1e-5\n", out_set(mesh, lambda x: x[0] <= 0.08 + 1e-9))


def main():
    for tool in ("gmsh", "ccx"):
        if not mf.shutil.which(tool):
            raise SystemExit("needs %s (Debian packages gmsh, calculix-ccx)" % tool)
    os.makedirs(OUT_DIR, exist_ok=True)
    make_cantilevers()
    make_plate()


if __name__ == "__main__":
    main()

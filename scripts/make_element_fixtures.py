#!/usr/bin/env python3
"""Write the decks of tests/data/fe/elements/ (wedges, incompatible-mode bricks, pyramids) and their
CalculiX references. Standard library only; needs ccx 2.20 and gmsh 4.8 (Debian).

    scripts/make_element_fixtures.py

Steel everywhere: E = 2.1e11 Pa, nu = 0.3, rho = 7850 kg/m^3; SI. Structured meshes are built here
from a block 0.1 x 0.02 x 0.01 m (x, y, z) cut into cells; every cell becomes 1 brick, 2 wedges
(its x-y square cut along the diagonal from its corner 1 to corner 3, extruded along z) or 6
pyramids (one on each face, apex at the cell centre). Node order: Abaqus (C3D6, C3D15, C3D8I) and
Nastran CPYRAM for the pyramids (C3D5, C3D13); every element is checked to be positively oriented.

  beam_c3d6_free.inp     10 x 2 x 2 cells -> 80 C3D6, free-free *FREQUENCY, 12 modes  -> .dat
  beam_c3d15_free.inp    the same with C3D15                                            -> .dat
  beam_c3d8i_free.inp    10 x 2 x 2 C3D8I                                               -> .dat
  beam_c3d8i_skew_free.inp  the same with the inner corner nodes moved along x by +-1/4 cell
                         (trapezoidal bricks: where ccx's C3D8I and ours differ in K too) -> .dat
  c3d6_mat.inp, c3d15_mat.inp, c3d8i_mat.inp   one element each (an affinely mapped reference
                         element), *FREQUENCY, SOLVER=MATRIXSTORAGE -> .sti/.mas/.dof; C3D8I adds
                         its 9 incompatible-mode dofs as nodes 9, 10, 11
  c3d8i_trapezoid_mat.inp  one C3D8I whose top face is narrower: there ccx's stiffness differs
  mixed_frd.inp          one C3D15, one C3D6 and one C3D8I (disjoint), *NODE FILE U -> .frd
                         (frd element types 5, 2, 1 and the 15-node wedge node order)
  mixed_linear.inp/.bdf  4 x 2 x 1 cells: x < 0.05 wedges (C3D6 / CPENTA), x > 0.05 pyramids
                         (C3D5 / CPYRAM); the same mesh in both formats (no ccx run: ccx 2.20
                         has no pyramid)
  mixed.inp/.bdf         the same with C3D15 / CPENTA 15 and C3D13 / CPYRAM 13
  prisms.geo             gmsh: the block, triangles extruded along z (Recombine): prisms.msh
                         (prism15, type 18), prisms_linear.msh (prism6, type 6) and gmsh's own
                         .inp of each (C3D15 / C3D6: gmsh's node-order conversion, independent of
                         ours), run by ccx free-free: prisms_free.dat, prisms_linear_free.dat
  hybrid.geo             gmsh: a structured brick block next to a tetrahedral one; gmsh puts
                         pyramids on the quadrangles the tetrahedra meet: hybrid.msh (hex20,
                         tet10, pyramid13), hybrid_linear.msh (hex8, tet4, pyramid5). gmsh writes
                         no pyramids to .inp and ccx has none: no ccx reference.

Nastran orders (MSC Nastran Quick Reference Guide, CPENTA, CPYRAM): CPENTA G7..G9 are the edges
1-2, 2-3, 3-1, G10..G12 the edges 1-4, 2-5, 3-6, G13..G15 the edges 4-5, 5-6, 6-4; CPYRAM G6..G9
the base edges 1-2, 2-3, 3-4, 4-1 and G10..G13 the edges 1-5, 2-5, 3-5, 4-5.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "fe", "elements")

MATERIAL = "*MATERIAL, NAME=STEEL\n*ELASTIC\n2.1e11, 0.3\n*DENSITY\n7850\n"
SIZE = (0.1, 0.02, 0.01)

# Abaqus brick corners (unit cell) and faces (right-hand normal into the brick)
HEX = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
HEX_FACES = [(0, 1, 2, 3), (4, 7, 6, 5), (0, 4, 5, 1), (1, 5, 6, 2), (2, 6, 7, 3), (3, 7, 4, 0)]
# mid-edge nodes in Abaqus / CPYRAM order
WEDGE15_EDGES = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)]
PYRAMID13_EDGES = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (1, 4), (2, 4), (3, 4)]
# Nastran position -> Abaqus position (nastran[k] = abaqus[TO_NASTRAN[k]])
TO_NASTRAN = {6: list(range(6)), 15: [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 9, 10, 11],
              5: list(range(5)), 13: list(range(13))}
CARD = {6: "CPENTA", 15: "CPENTA", 5: "CPYRAM", 13: "CPYRAM"}


class Mesh:
    """Nodes on a lattice of quarter cells (integer keys), elements as (type, node ids)."""

    def __init__(self, cells, size=SIZE, move=None):
        self.cells, self.size, self.move = cells, size, move
        self.ids, self.coords, self.elements = {}, {}, []

    def node(self, p):
        if p not in self.ids:
            self.ids[p] = len(self.ids) + 1
            x = [self.size[d] * p[d] / (4 * self.cells[d]) for d in range(3)]
            if self.move:
                x = self.move(p, x)
            self.coords[self.ids[p]] = x
        return self.ids[p]

    def add(self, etype, pts, edges=()):
        pts = list(pts) + [tuple((a + b) // 2 for a, b in zip(pts[i], pts[j])) for i, j in edges]
        ids = [self.node(p) for p in pts]
        check_orientation(etype, [self.coords[i] for i in ids])
        self.elements.append((etype, ids))


def sub(a, b):
    return [a[k] - b[k] for k in range(3)]


def triple(a, b, c):
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0]))


def check_orientation(etype, x):
    """Positive: the first face (bottom triangle, base, brick bottom) counter-clockwise seen from
    the rest of the element."""
    if etype.startswith("C3D8"):
        v = triple(sub(x[1], x[0]), sub(x[3], x[0]), sub(x[4], x[0]))
    elif etype in ("C3D6", "C3D15"):
        v = triple(sub(x[1], x[0]), sub(x[2], x[0]), sub(x[3], x[0]))
    else:  # pyramids
        v = triple(sub(x[1], x[0]), sub(x[3], x[0]), sub(x[4], x[0]))
    assert v > 0, (etype, x)


def cell_corners(i, j, k):
    return [(4 * (i + a), 4 * (j + b), 4 * (k + c)) for a, b, c in HEX]


def split(mesh, kind, quadratic, cells=None):
    """Fills mesh with the cells (all, or those for which cells(i, j, k) is true) as kind:
    'brick', 'wedge' or 'pyramid'."""
    nx, ny, nz = mesh.cells
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                if cells and not cells(i, j, k):
                    continue
                c = cell_corners(i, j, k)
                if kind == "brick":
                    mesh.add("C3D8I", c)
                elif kind == "wedge":
                    for t in ((0, 1, 2), (0, 2, 3)):  # the two triangles of the bottom square
                        pts = [c[a] for a in t] + [c[a + 4] for a in t]
                        mesh.add("C3D15" if quadratic else "C3D6", pts, WEDGE15_EDGES if quadratic else ())
                else:
                    centre = tuple(a + 2 for a in c[0])
                    for f in HEX_FACES:
                        pts = [c[a] for a in f] + [centre]
                        mesh.add("C3D13" if quadratic else "C3D5", pts, PYRAMID13_EDGES if quadratic else ())


def inp_mesh(mesh, title):
    s = "** %s, written by scripts/make_element_fixtures.py\n*NODE, NSET=NALL\n" % title
    s += "".join("%d, %.15g, %.15g, %.15g\n" % (n, *x) for n, x in sorted(mesh.coords.items()))
    eid = 1
    for etype in sorted({t for t, _ in mesh.elements}):
        s += "*ELEMENT, TYPE=%s, ELSET=SOLID\n" % etype
        for t, ids in mesh.elements:
            if t != etype:
                continue
            # at most 16 entries per line (Abaqus): id + 15 nodes, the rest continues
            first = [str(eid)] + [str(n) for n in ids[:15]]
            s += ", ".join(first) + (",\n" + ", ".join(map(str, ids[15:])) if len(ids) > 15 else "") + "\n"
            eid += 1
    return s


def free_card(*fields):
    return ",".join(str(f) for f in fields) + "\n"


def bdf_mesh(mesh, title):
    s = "$ %s, written by scripts/make_element_fixtures.py\nBEGIN BULK\n" % title
    s += "".join(free_card("GRID", n, "", *("%.15g" % c for c in x)) for n, x in sorted(mesh.coords.items()))
    eid = 1
    for etype in sorted({t for t, _ in mesh.elements}):  # the .inp's element order
        for t, ids in mesh.elements:
            if t != etype:
                continue
            g = [ids[p] for p in TO_NASTRAN[len(ids)]]
            fields = [CARD[len(ids)], eid, 1] + g
            # free field: 9 fields per line (name + 8), continuation lines start with '+'
            s += free_card(*fields[:9]) + "".join(free_card("+", *fields[p:p + 8]) for p in range(9, len(fields), 8))
            eid += 1
    s += free_card("PSOLID", 1, 1) + free_card("MAT1", 1, "2.1e11", "", 0.3, 7850.0)
    return s + "ENDDATA\n"


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def frequency_deck(mesh_file, title, modes=12, matrix=False, node_file=False):
    s = "*HEADING\n%s\n*INCLUDE, INPUT=%s\n%s*SOLID SECTION, ELSET=SOLID, MATERIAL=STEEL\n*STEP\n" % (
        title, mesh_file, MATERIAL)
    s += "*FREQUENCY, SOLVER=MATRIXSTORAGE\n" if matrix else "*FREQUENCY\n%d\n" % modes
    if node_file:
        s += "*NODE FILE\nU\n"
    return s + "*END STEP\n"


def single_element(etype, trapezoid=False):
    """One reference element mapped by an affine map (skewed, not axis-aligned); trapezoid: the
    brick's top face (zeta = 1) shrunk to 0.6 of its width along xi first."""
    nat = {"C3D6": [(0, 0, -1), (1, 0, -1), (0, 1, -1), (0, 0, 1), (1, 0, 1), (0, 1, 1)],
           "C3D8I": [((2 * a - 1) * (0.6 if trapezoid and c else 1), 2 * b - 1, 2 * c - 1) for a, b, c in HEX]}
    nat["C3D15"] = nat["C3D6"] + [tuple((p[k] + q[k]) / 2 for k in range(3))
                                  for p, q in ((nat["C3D6"][i], nat["C3D6"][j]) for i, j in WEDGE15_EDGES)]
    A = [[0.011, 0.002, -0.001], [0.001, 0.009, 0.0015], [-0.0012, 0.0008, 0.006]]
    pts = [[sum(A[r][c] * p[c] for c in range(3)) + (0.1, -0.2, 0.05)[r] for r in range(3)] for p in nat[etype]]
    check_orientation(etype, pts)
    s = "** one %s%s, written by scripts/make_element_fixtures.py\n*NODE\n" % (etype, " (trapezoid)" if trapezoid else "")
    s += "".join("%d, %.15g, %.15g, %.15g\n" % (i + 1, *x) for i, x in enumerate(pts))
    ids = list(range(1, len(pts) + 1))
    s += "*ELEMENT, TYPE=%s, ELSET=SOLID\n1, %s" % (etype, ", ".join(map(str, ids[:15])))
    s += (",\n" + ", ".join(map(str, ids[15:])) if len(ids) > 15 else "") + "\n"
    return s + MATERIAL + "*SOLID SECTION, ELSET=SOLID, MATERIAL=STEEL\n*STEP\n*FREQUENCY, SOLVER=MATRIXSTORAGE\n*END STEP\n"


def mixed_frd_deck():
    """One C3D15, one C3D6 and one C3D8I in cubes of 0.01 m, 0.02 m apart along y (no shared node)."""
    s, body, base = "*HEADING\none C3D15, one C3D6, one C3D8I (disjoint)\n*NODE, NSET=NALL\n", "", 0
    for part, (etype, edges) in enumerate((("C3D15", WEDGE15_EDGES), ("C3D6", ()), ("C3D8I", ()))):
        m = Mesh((1, 1, 1), (0.01, 0.01, 0.01))
        c = cell_corners(0, 0, 0)
        m.add(etype, c if etype == "C3D8I" else [c[0], c[1], c[2], c[4], c[5], c[6]], edges)
        s += "".join("%d, %.15g, %.15g, %.15g\n" % (base + n, x[0], x[1] + 0.02 * part, x[2])
                     for n, x in sorted(m.coords.items()))
        ids = [base + n for n in m.elements[0][1]]
        body += "*ELEMENT, TYPE=%s, ELSET=SOLID\n%d, %s\n" % (etype, part + 1, ", ".join(map(str, ids)))
        base += len(m.coords)
    return s + body + MATERIAL + "*SOLID SECTION, ELSET=SOLID, MATERIAL=STEEL\n*STEP\n*FREQUENCY\n2\n*NODE FILE\nU\n*END STEP\n"


PRISMS_GEO = """// the block 0.1 x 0.02 x 0.01 m: a triangulated x-y rectangle extruded along z in 2 layers
// (Recombine: prisms). Written by scripts/make_element_fixtures.py
SetFactory("Built-in");
Mesh.MshFileVersion = 4.1;
Mesh.SecondOrderIncomplete = 1;
Point(1) = {0, 0, 0, 0.012};
Point(2) = {0.1, 0, 0, 0.012};
Point(3) = {0.1, 0.02, 0, 0.012};
Point(4) = {0, 0.02, 0, 0.012};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 0.01} { Surface{1}; Layers{2}; Recombine; };
Physical Volume("SOLID") = {out[1]};
Mesh 3;
Save "prisms_linear.msh";
Save "prisms_linear_gmsh.inp";
SetOrder 2;
Save "prisms.msh";
Save "prisms_gmsh.inp";
"""

HYBRID_GEO = """// two blocks 0.04 x 0.02 x 0.01 m side by side: structured bricks (x < 0.04) and tetrahedra
// (x > 0.04); every surface is recombined, so gmsh puts pyramids on the quadrangles the
// tetrahedra meet. Written by scripts/make_element_fixtures.py
SetFactory("OpenCASCADE");
Mesh.MshFileVersion = 4.1;
Mesh.SecondOrderIncomplete = 1;
Box(1) = {0, 0, 0, 0.04, 0.02, 0.01};
Box(2) = {0.04, 0, 0, 0.04, 0.02, 0.01};
BooleanFragments{ Volume{1}; Delete; }{ Volume{2}; Delete; }
Transfinite Curve{:} = 3;
Transfinite Surface{:};
Recombine Surface{:};
Transfinite Volume{1};
Mesh.CharacteristicLengthMax = 0.01;
Physical Volume("SOLID") = {1, 2};
Mesh 3;
Save "hybrid_linear.msh";
SetOrder 2;
Save "hybrid.msh";
"""


def run(cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="1"))


def ccx(job, keep=(".dat",)):
    run(["ccx", "-i", job], OUT)
    for ext in (".dat", ".frd", ".sta", ".cvg", ".12d", ".sti", ".mas", ".dof"):
        p = os.path.join(OUT, job + ext)
        if os.path.exists(p) and ext not in keep:
            os.remove(p)


def gmsh_inp_to_ccx(src, dst):
    """gmsh's .inp without its heading (the decks have their own); only volume elements are
    written (the physical group is a volume)."""
    with open(os.path.join(OUT, src)) as f:
        lines = f.read().split("\n")
    out, skip = [], False
    for line in lines:
        if line.startswith("*"):
            skip = line.upper().startswith("*HEADING")
            if skip:
                continue
        elif skip:
            continue
        out.append(line)
    write(dst, "\n".join(out))
    os.remove(os.path.join(OUT, src))


def main():
    os.makedirs(OUT, exist_ok=True)
    decks = []
    for name, kind, quadratic, etype in (("c3d6", "wedge", False, "C3D6"), ("c3d15", "wedge", True, "C3D15"),
                                         ("c3d8i", "brick", False, "C3D8I")):
        m = Mesh((10, 2, 2))
        split(m, kind, quadratic)
        write("beam_%s_mesh.inp" % name, inp_mesh(m, "block 0.1 x 0.02 x 0.01 m, 10 x 2 x 2 cells, %s" % etype))
        write("beam_%s_free.inp" % name, frequency_deck("beam_%s_mesh.inp" % name, "%s block, free-free" % etype))
        decks.append("beam_%s_free" % name)

    def skew(p, x):  # inner corner planes x = i: moved by +-1/4 cell, alternating with y and z
        i = p[0] // 4
        if p[0] % 4 == 0 and 0 < i < 10 and p[1] % 4 == 0 and p[2] % 4 == 0:
            s = 1 if (p[1] // 4 + p[2] // 4) % 2 == 0 else -1
            x[0] += s * 0.25 * 0.01
        return x

    m = Mesh((10, 2, 2), move=skew)
    split(m, "brick", False)
    write("beam_c3d8i_skew_mesh.inp", inp_mesh(m, "block 0.1 x 0.02 x 0.01 m, 10 x 2 x 2 trapezoidal C3D8I"))
    write("beam_c3d8i_skew_free.inp", frequency_deck("beam_c3d8i_skew_mesh.inp", "skewed C3D8I block, free-free"))
    decks.append("beam_c3d8i_skew_free")

    for etype in ("C3D6", "C3D15", "C3D8I"):
        write("%s_mat.inp" % etype.lower(), single_element(etype))
    write("c3d8i_trapezoid_mat.inp", single_element("C3D8I", trapezoid=True))
    write("mixed_frd.inp", mixed_frd_deck())

    for name, quadratic in (("mixed_linear", False), ("mixed", True)):
        m = Mesh((4, 2, 1))
        split(m, "wedge", quadratic, lambda i, j, k: i < 2)
        split(m, "pyramid", quadratic, lambda i, j, k: i >= 2)
        title = "block 0.1 x 0.02 x 0.01 m, 4 x 2 x 1 cells: wedges (x < 0.05), pyramids (x > 0.05)"
        write(name + ".inp", inp_mesh(m, title) + MATERIAL + "*SOLID SECTION, ELSET=SOLID, MATERIAL=STEEL\n")
        write(name + ".bdf", bdf_mesh(m, title))

    write("prisms.geo", PRISMS_GEO)
    run(["gmsh", "-nt", "1", "prisms.geo", "-"], OUT)
    for stem in ("prisms", "prisms_linear"):
        gmsh_inp_to_ccx(stem + "_gmsh.inp", stem + "_mesh.inp")
        write(stem + "_free.inp", frequency_deck(stem + "_mesh.inp", "gmsh prisms, free-free"))
        decks.append(stem + "_free")
    write("hybrid.geo", HYBRID_GEO)
    run(["gmsh", "-nt", "1", "hybrid.geo", "-"], OUT)

    for job in decks:
        ccx(job)
    for stem in ("c3d6", "c3d15", "c3d8i", "c3d8i_trapezoid"):
        ccx(stem + "_mat", keep=(".sti", ".mas", ".dof"))
    ccx("mixed_frd", keep=(".frd",))
    for f in os.listdir(OUT):
        if f.startswith("spooles") or f.endswith(".out"):
            os.remove(os.path.join(OUT, f))
    return 0


if __name__ == "__main__":
    sys.exit(main())

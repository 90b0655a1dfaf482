#!/usr/bin/env python3
"""Write the decks of tests/data/fe/discrete/ (point masses, springs, nodes outside every element)
and their CalculiX references. Standard library only; needs ccx 2.20 and gmsh 4.8 (Debian).

    scripts/make_discrete_fixtures.py

Decks (steel: E = 2.1e11 Pa, nu = 0.3, rho = 7850 kg/m^3; SI):
  beam_mesh.inp          structured C3D20R beam 0.3 x 0.01 x 0.01 m along x (12 x 2 x 2 elements),
                         NSET END0 (x = 0), TIP (the centre node of the x = L face)
  beam_tipmass_free.inp  + MASS element of 0.1 kg on TIP, free-free *FREQUENCY  -> .dat
  beam_tipmass_clamped.inp  the same with *BOUNDARY END0                        -> .dat
  beam_tipmass.bdf       the same mesh (CHEXA 20) with a CONM2 of 0.1 kg on TIP, with an offset
  tetra_springs.inp      4 masses of 2 kg (MASS) on a regular tetrahedron (edge 0.1 m), joined by
                         6 SPRINGA of 1e4 N/m (closed form: omega^2 = k/m x 1, 1, 2, 2, 2, 4)
  tetra_springs.bdf      the same with CONM2 and CBUSH (PBUSH K1)
  orphans.inp            beam_tipmass_free + 3 nodes outside every element: a reference node in
                         NSET REF carrying a 0.05 kg MASS, and two loose points (no ccx run:
                         its modes must equal beam_tipmass_free's)
  disk.geo / disk.msh    gmsh: a disk extruded from circle arcs; the arcs' centre point is a
                         geometry point that no element uses
"""

import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "fe", "discrete")

L, H = 0.3, 0.01
NX, NY, NZ = 12, 2, 2
TIP_MASS = 0.1
MATERIAL = "*MATERIAL, NAME=STEEL\n*ELASTIC\n2.1e11, 0.3\n*DENSITY\n7850\n"


def node_id(i, j, k):
    """Half-spacing grid index -> node id (only points with at most one odd index exist)."""
    return 1 + i + (2 * NX + 1) * (j + (2 * NY + 1) * k)


def beam_nodes():
    nodes = {}
    for k in range(2 * NZ + 1):
        for j in range(2 * NY + 1):
            for i in range(2 * NX + 1):
                if (i % 2) + (j % 2) + (k % 2) > 1:
                    continue
                nodes[node_id(i, j, k)] = (L * i / (2 * NX), H * (j / (2 * NY) - 0.5), H * (k / (2 * NZ) - 0.5))
    return nodes


def beam_elements():
    """C3D20 node order: corners 1-4 (z low), 5-8 (z high), edges 1-2,2-3,3-4,4-1, 5-6,...,8-5, 1-5,...,4-8."""
    corners = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (0, 0, 2), (2, 0, 2), (2, 2, 2), (0, 2, 2)]
    edges = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]
    els = []
    eid = 1
    for ez in range(NZ):
        for ey in range(NY):
            for ex in range(NX):
                base = (2 * ex, 2 * ey, 2 * ez)
                pts = [tuple(b + c for b, c in zip(base, p)) for p in corners]
                pts += [tuple((pts[a][d] + pts[b][d]) // 2 for d in range(3)) for a, b in edges]
                els.append((eid, [node_id(*p) for p in pts]))
                eid += 1
    return els


def tip_node():
    return node_id(2 * NX, NY, NZ)


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def beam_mesh_inp():
    nodes = beam_nodes()
    s = "** structured C3D20R beam, written by scripts/make_discrete_fixtures.py\n*NODE, NSET=NALL\n"
    s += "".join("%d, %.15g, %.15g, %.15g\n" % (n, *x) for n, x in sorted(nodes.items()))
    s += "*ELEMENT, TYPE=C3D20R, ELSET=BEAM\n"
    for eid, ns in beam_elements():
        s += "%d, %s,\n%s\n" % (eid, ", ".join(map(str, ns[:15])), ", ".join(map(str, ns[15:])))
    end0 = [n for n, x in sorted(nodes.items()) if x[0] == 0.0]
    s += "*NSET, NSET=END0\n" + "".join("%d,\n" % n for n in end0)
    s += "*NSET, NSET=TIP\n%d\n" % tip_node()
    return s


def beam_tipmass(clamped):
    s = "*HEADING\nbeam with a tip mass (%s)\n*INCLUDE, INPUT=beam_mesh.inp\n" % ("clamped" if clamped else "free-free")
    s += "*ELEMENT, TYPE=MASS, ELSET=TIPMASS\n100001, %d\n*MASS, ELSET=TIPMASS\n%g\n" % (tip_node(), TIP_MASS)
    s += MATERIAL + "*SOLID SECTION, ELSET=BEAM, MATERIAL=STEEL\n*STEP\n*FREQUENCY\n%d\n" % (4 if clamped else 12)
    if clamped:
        s += "*BOUNDARY\nEND0, 1, 3\n"
    return s + "*END STEP\n"


def bdf_real(x):
    return ("%.8g" % x).ljust(8)[:8] if len("%.8g" % x) <= 8 else ("%.3E" % x).replace("E", "")


def free_card(*fields):
    return ",".join(str(f) for f in fields) + "\n"


def beam_tipmass_bdf():
    nodes = beam_nodes()
    # CHEXA G9..G12 bottom edges, G13..G16 vertical edges, G17..G20 top edges
    to_nastran = list(range(12)) + [16, 17, 18, 19, 12, 13, 14, 15]
    s = "$ structured CHEXA beam with a CONM2 tip mass, written by scripts/make_discrete_fixtures.py\nBEGIN BULK\n"
    s += "".join(free_card("GRID", n, "", "%.15g" % x[0], "%.15g" % x[1], "%.15g" % x[2]) for n, x in sorted(nodes.items()))
    for eid, ns in beam_elements():
        g = [ns[i] for i in to_nastran]
        s += free_card("CHEXA", eid, 1, *g[:6], "+") + free_card("+", *g[6:14], "+") + free_card("+", *g[14:])
    s += free_card("PSOLID", 1, 1) + free_card("MAT1", 1, "2.1e11", "", 0.3, 7850.0)
    # offset of 2 mm along z: dropped with a warning (mass on the grid)
    s += free_card("CONM2", 100001, tip_node(), "", TIP_MASS, 0.0, 0.0, 0.002)
    return s + "ENDDATA\n"


A, M_TET, K_TET = 0.1, 2.0, 1.0e4


def tetra_points():
    return [(0.0, 0.0, 0.0), (A, 0.0, 0.0), (A / 2, A * math.sqrt(3) / 2, 0.0),
            (A / 2, A * math.sqrt(3) / 6, A * math.sqrt(2.0 / 3.0))]


PAIRS = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]


def tetra_inp():
    s = "*HEADING\n4 masses on a regular tetrahedron joined by 6 axial springs\n*NODE\n"
    s += "".join("%d, %.15g, %.15g, %.15g\n" % (i + 1, *p) for i, p in enumerate(tetra_points()))
    s += "*ELEMENT, TYPE=MASS, ELSET=MASSES\n" + "".join("%d, %d\n" % (10 + i, i) for i in range(1, 5))
    s += "*MASS, ELSET=MASSES\n%.1f\n" % M_TET
    s += "*ELEMENT, TYPE=SPRINGA, ELSET=SPRINGS\n" + "".join("%d, %d, %d\n" % (20 + n, a, b) for n, (a, b) in enumerate(PAIRS))
    # ccx tells a stiffness from a DOF line by its decimal point
    s += "*SPRING, ELSET=SPRINGS\n%.1f\n" % K_TET
    return s + "*STEP\n*FREQUENCY\n10\n*END STEP\n"


def tetra_bdf():
    s = "$ 4 CONM2 on a regular tetrahedron joined by 6 CBUSH (axial K1), written by scripts/make_discrete_fixtures.py\n"
    s += "BEGIN BULK\n" + "".join(free_card("GRID", i + 1, "", *("%.15g" % c for c in p)) for i, p in enumerate(tetra_points()))
    s += "".join(free_card("CONM2", 10 + i, i, "", M_TET) for i in range(1, 5))
    s += free_card("PBUSH", 7, "K", K_TET)  # axial only (K2 = K3 = 0): no orientation needed
    s += "".join(free_card("CBUSH", 20 + n, 7, a, b) for n, (a, b) in enumerate(PAIRS))
    return s + "ENDDATA\n"


def orphans_inp():
    s = "*HEADING\nbeam with a tip mass, a reference node (with a mass) and two loose points\n"
    s += "*INCLUDE, INPUT=beam_mesh.inp\n*NODE, NSET=REF\n900001, 0.31, 0.0, 0.0\n*NODE\n900002, 0.0, 0.0, 0.1\n900003, 0.1, 0.1, 0.1\n"
    s += "*ELEMENT, TYPE=MASS, ELSET=TIPMASS\n100001, %d\n*MASS, ELSET=TIPMASS\n%g\n" % (tip_node(), TIP_MASS)
    s += "*ELEMENT, TYPE=MASS, ELSET=REFMASS\n100002, 900001\n*MASS, ELSET=REFMASS\n0.05\n"
    s += "*ELEMENT, TYPE=DASHPOTA, ELSET=DAMPER\n100003, 900001, %d\n*DASHPOT, ELSET=DAMPER\n\n10.\n" % tip_node()
    return s + MATERIAL + "*SOLID SECTION, ELSET=BEAM, MATERIAL=STEEL\n"


DISK_GEO = """// a steel disk (radius 0.05 m, 0.01 m thick) from four circle arcs; point 1, the arcs'
// centre, is a geometry point that no element uses. Written by scripts/make_discrete_fixtures.py
SetFactory("Built-in");
Mesh.MshFileVersion = 4.1;
Mesh.ElementOrder = 2;
Mesh.CharacteristicLengthMax = 0.02;
Mesh.SaveAll = 1;
Point(1) = {0, 0, 0};
Point(2) = {0.05, 0, 0};
Point(3) = {0, 0.05, 0};
Point(4) = {-0.05, 0, 0};
Point(5) = {0, -0.05, 0};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Extrude {0, 0, 0.01} { Surface{1}; Layers{2}; }
Mesh 3;
Save "disk.msh";
"""


def run(cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, OMP_NUM_THREADS="1"))


def run_ccx(jobs, folder):
    """ccx -i JOB for each job in folder; keeps .inp and .dat, deletes ccx's scratch files."""
    for job in jobs:
        run(["ccx", "-i", job], folder)
        for ext in (".frd", ".sta", ".cvg", ".12d"):
            p = os.path.join(folder, job + ext)
            if os.path.exists(p):
                os.remove(p)
    for f in os.listdir(folder):
        if f.startswith("spooles") or f.endswith(".out"):
            os.remove(os.path.join(folder, f))


def main():
    os.makedirs(OUT, exist_ok=True)
    write("beam_mesh.inp", beam_mesh_inp())
    write("beam_tipmass_free.inp", beam_tipmass(False))
    write("beam_tipmass_clamped.inp", beam_tipmass(True))
    write("beam_tipmass.bdf", beam_tipmass_bdf())
    write("tetra_springs.inp", tetra_inp())
    write("tetra_springs.bdf", tetra_bdf())
    write("orphans.inp", orphans_inp())
    write("disk.geo", DISK_GEO)
    # not tetra_springs: 12 DOFs are too few for ccx's ARPACK to reach the elastic modes
    # (NCV > N, "d[n,s]aupd: info=-3"); its reference is the closed form
    run_ccx(("beam_tipmass_free", "beam_tipmass_clamped"), OUT)
    run(["gmsh", "-nt", "1", "disk.geo", "-"], OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())

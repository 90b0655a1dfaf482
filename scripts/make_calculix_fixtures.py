#!/usr/bin/env python3
"""Write the decks of tests/data/fe/calculix/ (CalculiX keywords Flexim reads, tolerates or drops;
couplings as Craig-Bampton interfaces) and their CalculiX references. Standard library only;
needs ccx 2.20 (Debian package calculix-ccx).

    scripts/make_calculix_fixtures.py

Every beam deck includes ../discrete/beam_mesh.inp (scripts/make_discrete_fixtures.py: C3D20R beam
0.3 x 0.01 x 0.01 m along x, 12 x 2 x 2 elements, element set BEAM) and adds NSET TIPFACE (the 21
nodes of the x = L face), ELSET TIPELS (the 4 elements at that face, whose face S4 it is) and a
reference node 10001 on the axis 10 mm beyond the face, which belongs to no element.
Steel: E = 2.1e11 Pa, nu = 0.3, rho = 7850 kg/m^3; SI units.

  beam_clean.inp           the beam, free-free (the reference of the tolerance decks)
  material_options.inp     *RATE DEPENDENT (unknown to ccx), *PLASTIC and *EXPANSION between
                           *ELASTIC and *DENSITY, and a lone '*' line: same material as clean
  no_density.inp           the material without *DENSITY (give --density 7850)
  undefined_nset_node.inp  an *NSET that names node 99999, which does not exist
  extra_entries.inp        one C3D8 cube whose element line has two entries too many
  dropped_keywords.inp     *TIE, *EQUATION, *MPC, *CONTACT PAIR, *TRANSFORM, *ORIENTATION with an
                           orthotropic material, S8R shells with *SHELL SECTION, a GAPUNI with
                           *GAP, *RIGID BODY: all skipped with a warning, each a model change
  rigid_body_free.inp      *RIGID BODY, NSET=TIPFACE, REF NODE=10001 and a 0.1 kg MASS on 10001,
                           free-free *FREQUENCY -> .dat (ccx applies the rigid body as MPCs)
  coupling_kinematic_free.inp  the same with *COUPLING + *KINEMATIC on an element-face *SURFACE
                           (defined after the coupling) -> .dat
  coupling_distributing.inp    *COUPLING + *DISTRIBUTING on the element-face surface (TIPD) and on
                           a node surface of TIPFACE (TIPDN); no ccx run: in ccx 2.20 a distributing
                           coupling only distributes loads
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_discrete_fixtures as beam  # noqa: E402  (the beam mesh and its numbering)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "fe", "calculix")

REF_NODE, REF_X, POINT_MASS = 10001, beam.L + 0.01, 0.1
SECTION = "*SOLID SECTION, ELSET=BEAM, MATERIAL=STEEL\n"
FREE_STEP = "*STEP\n*FREQUENCY\n12\n*END STEP\n"


def tip_face_nodes():
    return [n for n, x in sorted(beam.beam_nodes().items()) if x[0] == beam.L]


def tip_elements():
    return [eid for eid, _ in beam.beam_elements() if (eid - 1) % beam.NX == beam.NX - 1]


def beam_head(title):
    s = "*HEADING\n%s\n*INCLUDE, INPUT=../discrete/beam_mesh.inp\n" % title
    s += "*NODE, NSET=REF\n%d, %.15g, 0, 0\n" % (REF_NODE, REF_X)
    s += "*NSET, NSET=TIPFACE\n" + "".join("%d,\n" % n for n in tip_face_nodes())
    s += "*ELSET, ELSET=TIPELS\n%s\n" % ", ".join(map(str, tip_elements()))
    return s


def point_mass():
    return "*ELEMENT, TYPE=MASS, ELSET=REFMASS\n100001, %d\n*MASS, ELSET=REFMASS\n%g\n" % (REF_NODE, POINT_MASS)


def tip_surface(name="TIPSURF"):
    """The x = L end as element faces: an element set and element ids (face S4 = nodes 2-6-7-3)."""
    els = tip_elements()
    s = "*ELSET, ELSET=TIPHALF\n%d, %d\n" % (els[0], els[1])
    s += "*SURFACE, NAME=%s, TYPE=ELEMENT\nTIPHALF, S4\n%d, S4\n%d, S4\n" % (name, els[2], els[3])
    return s


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def decks():
    d = {}
    d["beam_clean.inp"] = beam_head("the beam, free-free") + beam.MATERIAL + SECTION + FREE_STEP
    d["material_options.inp"] = (
        beam_head("material options ccx skips between *ELASTIC and *DENSITY, and a lone '*'")
        + "*MATERIAL, NAME=STEEL\n*ELASTIC\n2.1e11, 0.3\n*RATE DEPENDENT\n1.0, 2.0\n*PLASTIC\n3.5e8, 0.0\n"
        "*\n*EXPANSION\n1.2e-5\n*DENSITY\n7850\n" + SECTION + FREE_STEP)
    d["no_density.inp"] = (beam_head("a material without *DENSITY") + "*MATERIAL, NAME=STEEL\n*ELASTIC\n2.1e11, 0.3\n"
                           + SECTION + FREE_STEP)
    d["undefined_nset_node.inp"] = (beam_head("an *NSET naming a node that does not exist") +
                                    "*NSET, NSET=SOME\n1, 2, 99999, 3\n" + beam.MATERIAL + SECTION + FREE_STEP)
    d["extra_entries.inp"] = (
        "*HEADING\none C3D8 cube; its element line has two entries more than the 8 nodes (ccx ignores them)\n"
        "*NODE\n1, 0, 0, 0\n2, 0.1, 0, 0\n3, 0.1, 0.1, 0\n4, 0, 0.1, 0\n5, 0, 0, 0.1\n6, 0.1, 0, 0.1\n"
        "7, 0.1, 0.1, 0.1\n8, 0, 0.1, 0.1\n*ELEMENT, TYPE=C3D8, ELSET=CUBE\n1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\n"
        + beam.MATERIAL + "*SOLID SECTION, ELSET=CUBE, MATERIAL=STEEL\n")
    shell = "*NODE\n20001, 0.1, 0.02, -0.005\n20002, 0.2, 0.02, -0.005\n20003, 0.2, 0.02, 0.005\n20004, 0.1, 0.02, 0.005\n"
    shell += "20005, 0.15, 0.02, -0.005\n20006, 0.2, 0.02, 0\n20007, 0.15, 0.02, 0.005\n20008, 0.1, 0.02, 0\n"
    d["dropped_keywords.inp"] = (
        beam_head("keywords that change the model and that Flexim drops") + shell
        + "*ELEMENT, TYPE=S8R, ELSET=FIN\n200001, 20001, 20002, 20003, 20004, 20005, 20006, 20007, 20008\n"
        "*SHELL SECTION, ELSET=FIN, MATERIAL=STEEL\n0.002\n"
        "*ELEMENT, TYPE=GAPUNI, ELSET=STOP\n200002, 20001, 1\n*GAP, ELSET=STOP\n0.001, 0, 1, 0\n"
        + beam.MATERIAL + SECTION
        + "*MATERIAL, NAME=ORTHO\n*ELASTIC, TYPE=ENGINEERING CONSTANTS\n1e11, 1e11, 2e11, 0.3, 0.3, 0.3, 4e10, 4e10,\n4e10\n"
        "*DENSITY\n7850\n*ORIENTATION, NAME=OR1\n1, 0, 0, 0, 1, 0\n"
        "*EQUATION\n2\n1, 1, 1.0, 2, 1, -1.0\n*MPC\nBEAM, 3, 4, 5\n"
        + tip_surface() + "*SURFACE, NAME=FINSURF, TYPE=NODE\n20001\n"
        "*TIE, NAME=T1\nFINSURF, TIPSURF\n*CONTACT PAIR, INTERACTION=SI1\nFINSURF, TIPSURF\n"
        "*SURFACE INTERACTION, NAME=SI1\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=HARD\n"
        "*TRANSFORM, NSET=TIPFACE\n0, 1, 0, 0, 0, 1\n"
        "*RIGID BODY, NSET=TIPFACE, REF NODE=%d\n" % REF_NODE + FREE_STEP)
    d["rigid_body_free.inp"] = (beam_head("a *RIGID BODY on the x = L face, a point mass on its reference node")
                                + "*RIGID BODY, NSET=TIPFACE, REF NODE=%d\n" % REF_NODE + point_mass()
                                + beam.MATERIAL + SECTION + FREE_STEP)
    # the coupling comes before its *SURFACE: references are resolved at the end of the deck
    d["coupling_kinematic_free.inp"] = (
        beam_head("a *COUPLING + *KINEMATIC on the element faces of the x = L end, a point mass on its reference node")
        + "*COUPLING, CONSTRAINT NAME=TIPC, REF NODE=%d, SURFACE=TIPSURF\n*KINEMATIC\n1, 3\n" % REF_NODE
        + tip_surface() + point_mass() + beam.MATERIAL + SECTION + FREE_STEP)
    d["coupling_distributing.inp"] = (
        beam_head("a *COUPLING + *DISTRIBUTING on the x = L end: element faces (TIPD) and nodes (TIPDN)")
        + "*NODE\n10002, %.15g, 0, 0\n" % (REF_X + 0.01)
        + "*COUPLING, CONSTRAINT NAME=TIPD, REF NODE=%d, SURFACE=TIPSURF\n*DISTRIBUTING\n1, 6\n" % REF_NODE
        + "*COUPLING, CONSTRAINT NAME=TIPDN, REF NODE=10002, SURFACE=TIPNODES\n*DISTRIBUTING\n1, 6\n"
        + tip_surface() + "*SURFACE, NAME=TIPNODES, TYPE=NODE\nTIPFACE\n" + beam.MATERIAL + SECTION)
    return d


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, text in decks().items():
        write(name, text)
    beam.run_ccx(("rigid_body_free", "coupling_kinematic_free"), OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())

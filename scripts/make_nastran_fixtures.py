#!/usr/bin/env python3
"""Writes the Nastran syntax decks of tests/data/fe/nastran.

Python standard library only; deterministic. Run from anywhere:
    python3 scripts/make_nastran_fixtures.py
The decks are hand-made cases for the reader (tests/io_fe/nastran_test.cpp), not solver output:
every expected number is computed in closed form by the test itself.
"""
import math
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "fe", "nastran")

# steel, SI
E, NU, RHO = "2.1+11", ".3", "7850."


def small(name, *fields):
    """A small-field line: name and up to 8 fields of 8 columns."""
    line = f"{name:<8}"
    for f in fields:
        s = str(f)
        assert len(s) <= 8, (name, s)
        line += f"{s:>8}"
    return line.rstrip()


def real8(x):
    """A real in at most 8 columns, exactly (no leading zero: -.015625)."""
    s = repr(float(x))
    if s.startswith("0."):
        s = s[1:]
    elif s.startswith("-0."):
        s = "-" + s[2:]
    if s.endswith(".0"):
        s = s[:-1]
    if s in (".", "-."):
        s = "0."
    assert len(s) <= 8 and float(s) == x, (x, s)
    return s


def large(name, *fields):
    """A large-field line: name in 8 columns, up to 4 fields of 16."""
    return (f"{name:<8}" + "".join(f"{str(f):>16}" for f in fields)).rstrip()


def free(name, *fields):
    return ",".join([name] + [str(f) for f in fields])


def write(name, lines, header):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"$ {header}\n$ written by scripts/make_nastran_fixtures.py\n")
        f.write("\n".join(lines) + "\n")


def material(pid=1, mid=1):
    return [small("PSOLID", pid, mid), small("MAT1", mid, E, "", NU, RHO)]


# ---- a structured hex8 beam --------------------------------------------------------------
NX, NY, NZ = 10, 2, 2
LX, LY, LZ = 0.3125, 0.03125, 0.03125  # binary-exact steps (1/32 m, 1/64 m)


STEP = (NY + 1) * (NZ + 1)  # id step along x: each cross-section is numbered 1..9, 10..18, ...


def n(i, j, k):
    """Grid id at (i, j, k): the cross-sections x = const hold consecutive ids."""
    return 1 + j + (NY + 1) * k + STEP * i


def beam_nodes():
    """(id, x, y, z) of the beam's grids."""
    nodes = []
    for i in range(NX + 1):
        for k in range(NZ + 1):
            for j in range(NY + 1):
                nodes.append((n(i, j, k), LX * i / NX, LY * j / NY - LY / 2, LZ * k / NZ - LZ / 2))
    return nodes


def beam_hexes():
    hexes = []
    eid = 1
    for k in range(NZ):
        for j in range(NY):
            for i in range(NX):
                hexes.append((eid, [n(i, j, k), n(i + 1, j, k), n(i + 1, j + 1, k), n(i, j + 1, k),
                                    n(i, j, k + 1), n(i + 1, j, k + 1), n(i + 1, j + 1, k + 1), n(i, j + 1, k + 1)]))
                eid += 1
    return hexes


def chexa(eid, g, pid=1):
    return [small("CHEXA", eid, pid, *g[:6]), small("", *g[6:])]


def beam_cards(cp=None, transform=None):
    lines = []
    for nid, x, y, z in beam_nodes():
        if transform:
            x, y, z = transform(x, y, z)
        lines.append(free("GRID", nid, "" if cp is None else cp, repr(x), repr(y), repr(z)))
    for eid, g in beam_hexes():
        lines += chexa(eid, g)
    return lines + material()


# rotated system of beam_rotated.bdf: origin O, axes = rotation about (1, 2, 2)/3 by 40 degrees
O = (0.25, -0.5, 1.0)
AXIS = (1 / 3, 2 / 3, 2 / 3)
ANGLE = math.radians(40.0)


def rotate(v):
    k, c, s = AXIS, math.cos(ANGLE), math.sin(ANGLE)
    dot = sum(a * b for a, b in zip(k, v))
    cross = (k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0])
    return tuple(v[i] * c + cross[i] * s + k[i] * dot * (1 - c) for i in range(3))


def beams():
    write("beam_basic.bdf", ["BEGIN BULK"] + beam_cards() + ["ENDDATA"],
          "hex8 beam 0.3125 x 0.03125 x 0.03125 m in the basic system")
    a = O
    b = tuple(O[i] + rotate((0, 0, 1))[i] for i in range(3))
    c = tuple(O[i] + rotate((1, 0, 0))[i] for i in range(3))
    cord = [free("CORD2R", 7, "", *[repr(v) for v in a + b]), free("", *[repr(v) for v in c])]
    write("beam_rotated.bdf", ["BEGIN BULK"] + cord + beam_cards(cp=7) + ["ENDDATA"],
          "the same beam, its GRIDs given in CORD2R 7 (rotated 40 deg about (1,2,2)/3, origin (0.25,-0.5,1))")


# ---- nested coordinate systems -----------------------------------------------------------
def coords():
    lines = ["BEGIN BULK", "$ CORD2R 1: origin (1,2,3), z along (0,1,1), x along (1,0,0)",
             small("CORD2R", 1, "", "1.", "2.", "3.", "1.", "3.", "4."), small("", "2.", "2.", "3."),
             "$ CORD2C 2 in 1: origin (0.5,0,0)_1, axes those of 1",
             small("CORD2C", 2, 1, ".5", "0.", "0.", ".5", "0.", "1."), small("", "1.5", "0.", "0."),
             "$ CORD2S 3 in 2, points in cylindrical coordinates: origin on the axis of 2 at z = 2,",
             "$ z along that axis, x along the y axis of 2 (theta = 90)",
             small("CORD2S", 3, 2, "0.", "0.", "2.", "0.", "0.", "3."), small("", "1.", "90.", "2."),
             "$ two CORD1R on one card: 4 by grids 901..903 (given in CP 2 and 3), 8 by grids 911..913;",
             "$ CORD1C 5 by 911..913 too",
             small("CORD1R", 4, 901, 902, 903, 8, 911, 912, 913), small("CORD1C", 5, 911, 912, 913),
             small("GRID", 901, 2, ".4", "45.", "1."), small("GRID", 902, 2, ".4", "45.", "2."),
             small("GRID", 903, 3, ".5", "90.", "0."),
             small("GRID", 911, "", "5.", "0.", "0."), small("GRID", 912, "", "5.", "0.", "-1."),
             small("GRID", 913, "", "5.", "1.", "0."),
             "$ CORD1S 6: by grids 921..923 given in CP 4 (a chain: CORD1S 6 -> GRID -> CORD1R 4 -> GRID -> CORD2S",
             "$ 3 -> CORD2C 2 -> CORD2R 1)",
             small("CORD1S", 6, 921, 922, 923),
             small("GRID", 921, 4, "1.", "1.", "1."), small("GRID", 922, 4, "1.", "1.", "2."),
             small("GRID", 923, 4, "2.", "1.", "1."),
             "$ a ring of 12 grids in CORD2C 2: r = 0.3, theta = 0, 30, ..., 330, z = 0.7; CD 2"]
    for k in range(12):
        lines.append(small("GRID", 100 + k, 2, ".3", f"{30 * k}.", ".7", 2))
    lines.append("$ 8 grids on the equator of CORD2S 3 (r = 0.2, theta = 90, phi = 0, 45, ...) and its pole; CD 3")
    for k in range(8):
        lines.append(small("GRID", 200 + k, 3, ".2", "90.", f"{45 * k}.", 3))
    lines.append(small("GRID", 208, 3, ".2", "0.", "0."))
    lines.append("$ grids in the CORD1 systems (large field for one of them)")
    lines += [large("GRID*", 300, 4, "1.", "2."), large("*", "3.", 0)]
    lines.append(small("GRID", 301, 5, "2.", "90.", "1.", 5))
    lines.append(small("GRID", 302, 6, "1.", "90.", "90.", 6))
    lines.append(small("GRID", 303, 8, "1.", "2.", "3.", 8))
    lines.append("$ one tetrahedron in the basic system, so that the deck is a model")
    lines += [small("GRID", 1, "", "0.", "0.", "0."), small("GRID", 2, "", "1.", "0.", "0."),
              small("GRID", 3, "", "0.", "1.", "0."), small("GRID", 4, "", "0.", "0.", "1."),
              small("CTETRA", 1, 1, 1, 2, 3, 4)] + material() + ["ENDDATA"]
    write("coords.bdf", lines, "nested CORD2R/2C/2S and CORD1R/1C/1S with known basic positions")

    write("grdset.bdf", ["BEGIN BULK", small("GRDSET", "", 1, "", "", "", 2),
                         small("CORD2R", 1, "", "0.", "0.", "0.", "0.", "0.", "1."), small("", "0.", "1.", "0."),
                         small("CORD2C", 2, "", "0.", "0.", "0.", "0.", "0.", "1."), small("", "1.", "0.", "0."),
                         "$ CP blank -> 1 (x and y swapped), CD blank -> 2; grid 4 says CP 0 and CD 0",
                         small("GRID", 1, "", "0.", "0.", "0."), small("GRID", 2, "", "1.", "0.", "0."),
                         small("GRID", 3, "", "0.", "1.", "0."), small("GRID", 4, 0, "0.", "0.", "1.", 0),
                         small("CTETRA", 1, 1, 1, 2, 3, 4)] + material() + ["ENDDATA"],
          "GRDSET: default CP and CD")


# ---- replication ----------------------------------------------------------------------------
def replication():
    """The beam with its grids and hexes written by replication, and the same expanded."""
    expanded = ["BEGIN BULK"]
    rep = ["BEGIN BULK", "$ one row of 11 grids along x per (j, k): a card, one '=' with increments, '=9'"]
    dx = LX / NX
    for k in range(NZ + 1):
        for j in range(NY + 1):
            nid, x, y, z = [g for g in beam_nodes() if g[0] == n(0, j, k)][0]
            if (j + k) % 2 == 0:  # free field
                rep += [free("GRID", nid, "", repr(x), repr(y), repr(z)), f"=,*{STEP},=,*{dx!r},==", f"={NX - 1}"]
            else:  # small field, "=(n)" and "*(x)"
                rep += [small("GRID", nid, "", real8(x), real8(y), real8(z)), small("=", f"*({STEP})", "=", "*" + real8(dx), "=="),
                        small(f"=({NX - 1})")]
    for nid, x, y, z in beam_nodes():
        expanded.append(free("GRID", nid, "", repr(x), repr(y), repr(z)))
    rep.append("$ one row of hexes per (j, k): continuation lines replicated through '==' and increments")
    for eid, g in beam_hexes():
        expanded += chexa(eid, g)
    for k in range(NZ):
        for j in range(NY):
            eid, g = [h for h in beam_hexes() if h[0] == 1 + NX * (j + NY * k)][0]
            inc = f"*{STEP}"
            rep += [free("CHEXA", eid, 1, *g[:6]) + ",", free("", *g[6:]),
                    "=,*1,=," + ",".join([inc] * 6) + ",", "," + ",".join([inc] * 2), "=" + str(NX - 2)]
    rep += material() + ["ENDDATA"]
    expanded += material() + ["ENDDATA"]
    write("replication.bdf", rep, "the beam of beam_basic.bdf written with replication (=, ==, *x, *(x), =n, =(n))")
    write("replication_expanded.bdf", expanded, "replication.bdf expanded by hand (the beam of beam_basic.bdf)")


# ---- skipped cards, sections, trailing commas ------------------------------------------------
def skipped():
    lines = ["SOL 103", "CEND", "TITLE = skipped cards", "METHOD = 1", "BEGIN BULK",
             "PARAM,POST,-1", "PARAM   AUTOSPC YES", small("EIGRL", 1, "", "", 10),
             "$ trailing commas in free field",
             "GRID,1,,0.,0.,0.,", "GRID,2,,1.,0.,0.,,,,", "GRID,3,,0.,1.,0.", "GRID,4,,0.,0.,1.,",
             "CTETRA,1,1,1,2,3,4,", "PSOLID,1,1,", "MAT1,1,2.1+11,,.3,7850.,",
             "SPC1,1,123456,1", "SPC1,1,123456,2,3",
             "$ design equations: free text with commas and blanks on continuation lines",
             "DEQATN  1       F(A,B,C) = A + B*C",
             "DEQATN  2       G(X,Y) = SIN(X)*COS(Y) +",
             "                 X**2, ; not a card",
             "DEQATN  3       H(R) = R**2",
             "$ shells, rigid elements, an MPC",
             small("CQUAD4", 10, 2, 1, 2, 3, 4), small("PSHELL", 2, 1, ".01"),
             small("RBAR", 20, 1, 2, 123456), small("MPC", 1, 1, 1, "1.", 2, 1, "-1."),
             "$ a long contact surface in large field, 30 continuation lines",
             large("BSURF*", 1, 1, 2, 3)]
    for k in range(30):
        lines.append(large("*", *range(4 * k + 4, 4 * k + 8)))
    lines += ["$ the same in free field, longer than 10 fields per line",
              "BSURF,2," + ",".join(str(i) for i in range(1, 41)),
              "BCTABLE,1,1,2", "FOOBAR,1,2,3",
              "BEGIN SUPER=2", "GRID,1001,,0.,0.,0.", "GRID,1002,,1.,0.,0.", "CQUAD4,1001,1,1001,1002,1003,1004",
              "BEGIN BULK", "FORCE,1,1,,1.,1.,0.,0.", "ENDDATA", "GRID,99,,garbage after ENDDATA"]
    write("skipped.bdf", lines, "cards that are skipped: harmless, model-changing, unknown; BEGIN SUPER; DEQATN")


# ---- include fragments -------------------------------------------------------------------
def fragments():
    grids = [small("GRID", 1, "", "0.", "0.", "0."), small("GRID", 2, "", "1.", "0.", "0."),
             small("GRID", 3, "", "0.", "1.", "0."), small("GRID", 4, "", "0.", "0.", "1.")]
    write("fragments/grids.inc", grids, "fragment: grids only (no BEGIN BULK)")
    write("fragments/solids.blk", [free("CTETRA", 1, 1, 1, 2, 3, 4)], "fragment: elements")
    write("fragments/props.pch", [large("PSOLID*", 1, 1), "*", large("MAT1*", 1, "2.1+11", "", ".3"),
                                  large("*", "7850.")], "fragment: property and material in large field")
    write("fragments/model.bulk", ["INCLUDE 'grids.inc'", "INCLUDE 'solids.blk'", "INCLUDE 'props.pch'"],
          "fragment: includes the other three")
    for ext in ("inc", "blk", "pch", "bulk"):
        write(f"fragments/tet.{ext}", grids + [free("CTETRA", 1, 1, 1, 2, 3, 4)] + material(),
              f"a whole model as a .{ext} fragment (no BEGIN BULK)")


# ---- RBE2 / RBE3 -----------------------------------------------------------------------------
def spider(with_mass):
    """The beam with an RBE2 spider on its x = L end (reference grid 1001 off the mesh) and an RBE3
    on its x = 0 end (reference grid 1002)."""
    nodes = beam_nodes()
    end_l = [n[0] for n in nodes if abs(n[1] - LX) < 1e-12]
    end_0 = [n[0] for n in nodes if abs(n[1]) < 1e-12]
    lines = ["BEGIN BULK"] + beam_cards()
    lines += [small("GRID", 1001, "", real8(LX + 0.0625), "0.", "0."), small("GRID", 1002, "", "-.0625", "0.", "0.")]
    # RBE2 101: GN 1001, CM 123, the 9 grids of the end: a THRU range for the first three
    gm = [end_l[0], "THRU", end_l[2]] + end_l[3:]
    lines.append(small("RBE2", 101, 1001, 123, *gm[:5]))
    lines.append(small("", *gm[5:]))
    # RBE3 102: REFGRID 1002, REFC 123456; corners weight 1., edge mids 2. and the centre 4.; the
    # centre grid is listed again in a second group of weight 0.5 (its weights add up to 4.5)
    corners = [end_0[0], end_0[2], end_0[6], end_0[8]]
    mids = [end_0[1], end_0[3], end_0[5], end_0[7]]
    centre = end_0[4]
    fields = [102, "", 1002, 123456, "1.", 123, *corners, "2.", 123, *mids, "4.", 123, centre, ".5", 123, centre,
              "ALPHA", "1.-5"]
    for k in range(0, len(fields), 8):
        lines.append(small("RBE3" if k == 0 else "", *fields[k:k + 8]))
    if with_mass:
        lines.append(small("CONM2", 201, 1001, "", "2.5"))
    lines.append("ENDDATA")
    name = "spider_mass.bdf" if with_mass else "spider.bdf"
    write(name, lines, "the beam with an RBE2 spider (101, reference grid 1001 off the mesh) and an RBE3 (102)" +
          (", CONM2 2.5 kg on grid 1001" if with_mass else ""))


if __name__ == "__main__":
    beams()
    coords()
    replication()
    skipped()
    fragments()
    spider(False)
    spider(True)

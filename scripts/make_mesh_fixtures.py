#!/usr/bin/env python3
"""Write the triangle-mesh fixtures of the mass-properties tests (flexim-cli mass-properties).

    scripts/make_mesh_fixtures.py [--check]

Writes tests/data/meshes/ (Python standard library only, deterministic):

  box_binary.stl       the box below as binary STL (12 facets, every facet with its own vertices)
  box_ascii.stl        the same as ASCII STL
  box_mm.stl           the same in millimetres (coordinates x 1000; read with --scale 0.001)
  box.obj              the same as OBJ: 8 shared vertices, 6 quadrilateral faces (Assimp splits them)
  box.ply              the same as ASCII PLY: 8 vertices, 12 triangles
  box_open.stl         box_ascii.stl without its first facet: 3 boundary edges
  box_flipped_facet.stl  box_ascii.stl with its first facet turned: 3 inconsistently oriented edges
  box_inside_out.stl   box_ascii.stl with every facet turned (signed volume negative)
  prism24.stl          a regular 24-gon prism ("cylinder"), ASCII STL

The box: edges 3 x 1.5 x 0.75 m along the columns of R = (1/3) [[2, -1, 2], [2, 2, -1], [-1, 2, 2]]
(a rotation with rational entries), centre (1000.5, -250.25, 40.125) m. R times the half-edges
(1.5, 0.75, 0.375) is an integer matrix times (0.5, 0.25, 0.125), so every coordinate is a
multiple of 1/8 below 2^13 and exact in the 32-bit floats of STL (and in Assimp, which reads
every format as 32-bit floats): the file holds exactly the box of the closed forms.

The prism: circumradius 0.05 m, height 0.2 m, axis along z through (0.3, -0.2, 0.1) (its
centroid), a vertex at angle 0; caps as fans around their centres. Its coordinates are rounded
to 32-bit floats, so it matches the closed form of the exact prism to about 1e-7 only (the
in-memory test in tests/core/mass_properties_test.cpp checks the formulas to round-off).

--check writes nothing and exits 1 if a committed file differs from what the script would write.
"""

import argparse
import math
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "meshes")

R = [[2 / 3, -1 / 3, 2 / 3], [2 / 3, 2 / 3, -1 / 3], [-1 / 3, 2 / 3, 2 / 3]]
M = [[2, -1, 2], [2, 2, -1], [-1, 2, 2]]  # 3 R
HALF = (1.5, 0.75, 0.375)
CENTRE = (1000.5, -250.25, 40.125)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def box():
    """The 8 corners (exact) and 12 outward triangles of the box."""
    corners = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                # R (s * HALF) = M (s * HALF / 3): exact in binary floating point
                local = (sx * HALF[0] / 3, sy * HALF[1] / 3, sz * HALF[2] / 3)
                corners.append(tuple(CENTRE[i] + sum(M[i][j] * local[j] for j in range(3)) for i in range(3)))
    idx = lambda sx, sy, sz: (sx > 0) * 4 + (sy > 0) * 2 + (sz > 0)
    # each face counter-clockwise seen from outside, in local axes
    quads = [
        [idx(1, -1, -1), idx(1, 1, -1), idx(1, 1, 1), idx(1, -1, 1)],  # +x
        [idx(-1, -1, -1), idx(-1, -1, 1), idx(-1, 1, 1), idx(-1, 1, -1)],  # -x
        [idx(-1, 1, -1), idx(-1, 1, 1), idx(1, 1, 1), idx(1, 1, -1)],  # +y
        [idx(-1, -1, -1), idx(1, -1, -1), idx(1, -1, 1), idx(-1, -1, 1)],  # -y
        [idx(-1, -1, 1), idx(1, -1, 1), idx(1, 1, 1), idx(-1, 1, 1)],  # +z
        [idx(-1, -1, -1), idx(-1, 1, -1), idx(1, 1, -1), idx(1, -1, -1)],  # -z
    ]
    # R is a rotation (det +1), so local orientation carries over
    triangles = []
    for q in quads:
        triangles += [(q[0], q[1], q[2]), (q[0], q[2], q[3])]
    return corners, quads, triangles


def prism(n=24, radius=0.05, height=0.2, centre=(0.3, -0.2, 0.1)):
    cx, cy, cz = centre
    ring = lambda z: [(cx + radius * math.cos(2 * math.pi * k / n), cy + radius * math.sin(2 * math.pi * k / n), z)
                      for k in range(n)]
    bottom, top = ring(cz - height / 2), ring(cz + height / 2)
    vertices = bottom + top + [(cx, cy, cz - height / 2), (cx, cy, cz + height / 2)]
    vertices = [tuple(f32(c) for c in v) for v in vertices]
    cb, ct = 2 * n, 2 * n + 1
    triangles = []
    for k in range(n):
        k1 = (k + 1) % n
        triangles += [(k, k1, n + k1), (k, n + k1, n + k)]  # side, outward
        triangles += [(cb, k1, k), (ct, n + k, n + k1)]  # bottom faces -z, top +z
    return vertices, triangles


def normal(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    length = math.sqrt(sum(x * x for x in n)) or 1.0
    return [x / length for x in n]


def num(x):
    """Shortest text that reads back as the same 32-bit float; whole numbers without an exponent
    (Assimp's own number parser rounds 1.0015e+06 off by an ulp)."""
    if x == int(x) and abs(x) < 2**24:
        return "%d" % x
    for digits in range(6, 10):
        text = "%.*g" % (digits, x)
        if f32(float(text)) == f32(x):
            return text
    return "%.9g" % x


def ascii_stl(name, vertices, triangles):
    lines = ["solid " + name]
    for t in triangles:
        a, b, c = (vertices[i] for i in t)
        lines.append("  facet normal " + " ".join(num(x) for x in normal(a, b, c)))
        lines.append("    outer loop")
        for v in (a, b, c):
            lines.append("      vertex " + " ".join(num(x) for x in v))
        lines.append("    endloop")
        lines.append("  endfacet")
    lines.append("endsolid " + name)
    return ("\n".join(lines) + "\n").encode()


def binary_stl(name, vertices, triangles):
    header = ("Flexim test mesh " + name + " (scripts/make_mesh_fixtures.py)").encode().ljust(80, b" ")
    out = bytearray(header + struct.pack("<I", len(triangles)))
    for t in triangles:
        a, b, c = (vertices[i] for i in t)
        out += struct.pack("<12fH", *normal(a, b, c), *a, *b, *c, 0)
    return bytes(out)


def obj(vertices, faces):
    lines = ["# Flexim test mesh (scripts/make_mesh_fixtures.py): the box of box_ascii.stl, quadrilateral faces"]
    lines += ["v " + " ".join(num(x) for x in v) for v in vertices]
    lines += ["f " + " ".join(str(i + 1) for i in f) for f in faces]
    return ("\n".join(lines) + "\n").encode()


def ply(vertices, triangles):
    lines = ["ply", "format ascii 1.0", "comment Flexim test mesh (scripts/make_mesh_fixtures.py): the box of box_ascii.stl",
             "element vertex %d" % len(vertices), "property float x", "property float y", "property float z",
             "element face %d" % len(triangles), "property list uchar int vertex_indices", "end_header"]
    lines += [" ".join(num(x) for x in v) for v in vertices]
    lines += ["3 " + " ".join(str(i) for i in t) for t in triangles]
    return ("\n".join(lines) + "\n").encode()


def files():
    corners, quads, triangles = box()
    mm = [tuple(1000 * x for x in v) for v in corners]
    turned = lambda t: (t[0], t[2], t[1])
    pv, pt = prism()
    return {
        "box_binary.stl": binary_stl("box", corners, triangles),
        "box_ascii.stl": ascii_stl("box", corners, triangles),
        "box_mm.stl": ascii_stl("box_mm", mm, triangles),
        "box.obj": obj(corners, quads),
        "box.ply": ply(corners, triangles),
        "box_open.stl": ascii_stl("box_open", corners, triangles[1:]),
        "box_flipped_facet.stl": ascii_stl("box_flipped_facet", corners, [turned(triangles[0])] + triangles[1:]),
        "box_inside_out.stl": ascii_stl("box_inside_out", corners, [turned(t) for t in triangles]),
        "prism24.stl": ascii_stl("prism24", pv, pt),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = ap.parse_args()
    # the box's corners must be exact in 32-bit floats (the point of its choice)
    for v in box()[0]:
        assert all(f32(x) == x and f32(1000 * x) == 1000 * x for x in v), v
    stale = []
    for name, data in files().items():
        path = os.path.join(OUT, name)
        if args.check:
            try:
                with open(path, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                stale.append(name)
        else:
            os.makedirs(OUT, exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
            print("wrote", os.path.relpath(path, ROOT))
    if stale:
        print("stale or missing (run scripts/make_mesh_fixtures.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    if args.check:
        print("mesh fixtures up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

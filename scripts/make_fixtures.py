#!/usr/bin/env python3
"""Regenerate the FE fixtures under tests/data/fe/ with the real tools (gmsh 4.8, CalculiX ccx 2.20).

Run by developers, not by CI. Uses only the Python standard library.

    scripts/make_fixtures.py            # everything
    scripts/make_fixtures.py beam tiny  # only some directories
    scripts/make_fixtures.py rod-mesh NODES DIR
                                        # the round rod of rod/ with about NODES nodes, into DIR:
                                        # gmsh + flexim-cli reduce (6 + 8 modes), no ccx

The rod fixtures (and rod-mesh) also need a built flexim-cli: $FLEXIM_CLI, else
<repo>/build/app/flexim-cli, else flexim-cli on the PATH.

Steps per meshed model:
  1. gmsh meshes <name>.geo; the .geo itself saves the .msh (v4.1 ASCII) and the gmsh .inp
     (one meshing run, so both files hold the same mesh).
  2. The gmsh .inp is converted for ccx: *HEADING and 2-D element blocks written for physical surfaces
     (CPS3/CPS6/CPS8...) and the ELSETs that refer to them are dropped; *NODE, *NSET and the
     3-D element blocks are kept (element types may be renamed).
  3. ccx runs the decks (*INCLUDE of the converted mesh). Scratch outputs are deleted.

Everything is deterministic (gmsh and ccx single threaded) except the DATE/TIME header lines
that ccx writes into .frd files.
"""

import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "fe")

E = "2.1e11"
NU = "0.3"
RHO = "7850"
# the flexible slider-crank rods of rod/ use another steel
ROD_MATERIAL = ("2.0e11", "0.3", "7870")

ENV = dict(os.environ, OMP_NUM_THREADS="1", CCX_NPROC_EQUATION_SOLVER="1",
           CCX_NPROC_RESULTS="1", CCX_NPROC_STIFFNESS="1", NUMBER_OF_CPUS="1")

# outputs of a ccx job that are kept; everything else ccx writes is deleted
SCRATCH_EXT = (".sta", ".cvg", ".12d", ".inp.bak", ".eig", ".out")


def run(cmd, cwd):
    print("  $", " ".join(cmd), flush=True)
    r = subprocess.run(cmd, cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0 or "*ERROR" in r.stdout:
        sys.stdout.write(r.stdout)
        raise SystemExit("command failed: " + " ".join(cmd))
    return r.stdout


def gmsh(d, geo):
    run(["gmsh", "-nt", "1", geo, "-"], d)


def gmsh_inp_to_ccx(src, dst, rename=None):
    """Keeps *NODE, *NSET and 3-D *ELEMENT blocks; drops *HEADING, 2-D element blocks and their
    ELSETs."""
    rename = rename or {}
    with open(src) as f:
        lines = f.read().splitlines()
    blocks = []  # [keyword line, data lines]
    for line in lines:
        if line.startswith("*") and not line.startswith("**"):
            blocks.append([line, []])
        elif blocks:
            blocks[-1][1].append(line)
        else:
            blocks.append([None, [line]])

    def ids(data):
        out = []
        for line in data:
            out += [int(t) for t in line.split(",") if t.strip()]
        return out

    dropped = set()
    out = []
    for key, data in blocks:
        up = (key or "").upper().replace(" ", "")
        if up.startswith("*HEADING"):
            continue  # the decks that *INCLUDE the mesh have their own heading (only one allowed)
        if up.startswith("*ELEMENT,"):
            m = re.search(r"type=([A-Za-z0-9]+)", key, re.I)
            etype = m.group(1).upper()
            if not etype.startswith("C3D"):
                # 2-D/1-D elements of physical surfaces: first field of each element record
                rec = []
                for line in data:
                    rec.append(line)
                    if not line.rstrip().endswith(","):
                        dropped.add(int(rec[0].split(",")[0]))
                        rec = []
                continue
            if etype in rename:
                key = re.sub(r"type=[A-Za-z0-9]+", "type=" + rename[etype], key, flags=re.I)
        elif up.startswith("*ELSET,"):
            members = ids(data)
            hit = [i for i in members if i in dropped]
            if hit:
                if len(hit) != len(members):
                    raise SystemExit("%s: ELSET mixes 2-D and 3-D elements: %s" % (src, key))
                continue
        out.append(key)
        out.extend(data)
    with open(dst, "w") as f:
        f.write("\n".join(l for l in out if l is not None) + "\n")


def material_block(elset, material=(E, NU, RHO)):
    return ("*MATERIAL, NAME=STEEL\n*ELASTIC\n%s, %s\n*DENSITY\n%s\n"
            "*SOLID SECTION, ELSET=%s, MATERIAL=STEEL\n" % (material + (elset,)))


def write_deck(path, title, mesh, elset, step, boundary=""):
    with open(path, "w") as f:
        f.write("*HEADING\n%s\n" % title)
        f.write("*INCLUDE, INPUT=%s\n" % mesh)
        f.write(material_block(elset))
        f.write(boundary)
        f.write("*STEP\n" + step + "*END STEP\n")


def freq_step(n):
    return "*FREQUENCY\n%d\n*NODE FILE\nU\n" % n


MATRIX_STEP = "*FREQUENCY, SOLVER=MATRIXSTORAGE\n"


def ccx(d, job, keep):
    """Runs ccx on <job>.inp in d; keeps <job>.<ext> for ext in keep, deletes other outputs."""
    for ext in (".dat", ".frd", ".sti", ".mas", ".dof"):
        p = os.path.join(d, job + ext)
        if os.path.exists(p):
            os.remove(p)
    log = run(["ccx", "-i", job], d)
    if "info=-" in log:
        sys.stdout.write(log)
        raise SystemExit("ARPACK failed for " + job)
    for name in os.listdir(d):
        base, ext = os.path.splitext(name)
        p = os.path.join(d, name)
        if name == "spooles.out" or (base == job and ext not in keep and ext != ".inp"):
            os.remove(p)
    for ext in keep:
        if not os.path.exists(os.path.join(d, job + ext)):
            raise SystemExit("ccx did not write %s%s" % (job, ext))


def frequencies(dat):
    """Rows of the eigenvalue table: (mode, eigenvalue, f [Hz])."""
    rows = []
    with open(dat) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if "E I G E N V A L U E   O U T P U T" in line:
            j = i + 6
            while j < len(lines) and lines[j].strip():
                t = lines[j].split()
                rows.append((int(t[0]), float(t[1]), float(t[3])))
                j += 1
            break
    if not rows or all(r[1] == 0.0 for r in rows):
        raise SystemExit(dat + ": empty or all-zero eigenvalue table")
    return rows


def total_mass(dat):
    with open(dat) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if "T O T A L   E F F E C T I V E   M A S S" in line:
            for l in lines[i + 1:]:
                t = l.split()
                if len(t) == 6:
                    return [float(x) for x in t]
    return None


def summary(d, job):
    rows = frequencies(os.path.join(d, job + ".dat"))
    print("  %s: %s" % (job, ", ".join("%.6g" % r[2] for r in rows)))


# ------------------------------------------------------------------------------------------

def make_beam():
    d = os.path.join(DATA, "beam")
    print("beam")
    # C3D10 beam
    gmsh(d, "beam.geo")
    gmsh_inp_to_ccx(os.path.join(d, "mesh_gmsh.inp"), os.path.join(d, "mesh_ccx.inp"))
    write_deck(os.path.join(d, "beam_free.inp"), "beam 0.3 x 0.01 x 0.01 m, C3D10, free-free",
               "mesh_ccx.inp", "BEAM", freq_step(20))
    ccx(d, "beam_free", (".dat", ".frd"))
    write_deck(os.path.join(d, "beam_clamped.inp"),
               "beam 0.3 x 0.01 x 0.01 m, C3D10, clamped at x = 0 (END0)",
               "mesh_ccx.inp", "BEAM", freq_step(10), "*BOUNDARY\nEND0, 1, 3\n")
    ccx(d, "beam_clamped", (".dat",))
    # C3D20 beam, structured
    gmsh(d, "beam_hex.geo")
    gmsh_inp_to_ccx(os.path.join(d, "mesh_hex_gmsh.inp"), os.path.join(d, "mesh_hex_ccx.inp"))
    write_deck(os.path.join(d, "beam_hex_free.inp"),
               "beam 0.3 x 0.01 x 0.01 m, C3D20, free-free",
               "mesh_hex_ccx.inp", "BEAM", freq_step(20))
    ccx(d, "beam_hex_free", (".dat", ".frd"))
    write_deck(os.path.join(d, "beam_hex_clamped.inp"),
               "beam 0.3 x 0.01 x 0.01 m, C3D20, clamped at x = 0 (END0)",
               "mesh_hex_ccx.inp", "BEAM", freq_step(10), "*BOUNDARY\nEND0, 1, 3\n")
    ccx(d, "beam_hex_clamped", (".dat",))
    # matrix export on the small hex mesh (the C3D10 mesh would give 4 MB per matrix file)
    write_deck(os.path.join(d, "beam_hex_mat.inp"),
               "beam 0.3 x 0.01 x 0.01 m, C3D20, matrix export",
               "mesh_hex_ccx.inp", "BEAM", MATRIX_STEP)
    ccx(d, "beam_hex_mat", (".sti", ".mas", ".dof"))
    for job in ("beam_free", "beam_clamped", "beam_hex_free", "beam_hex_clamped"):
        summary(d, job)


def make_conrod():
    d = os.path.join(DATA, "conrod")
    print("conrod")
    gmsh(d, "conrod.geo")
    gmsh_inp_to_ccx(os.path.join(d, "mesh_gmsh.inp"), os.path.join(d, "mesh_ccx.inp"))
    write_deck(os.path.join(d, "conrod_free.inp"), "connecting rod, C3D10, free-free",
               "mesh_ccx.inp", "CONROD", freq_step(10))
    ccx(d, "conrod_free", (".dat", ".frd"))
    summary(d, "conrod_free")


def make_bracket():
    d = os.path.join(DATA, "bracket")
    print("bracket")
    gmsh(d, "bracket.geo")
    gmsh_inp_to_ccx(os.path.join(d, "mesh_gmsh.inp"), os.path.join(d, "mesh_ccx.inp"))
    write_deck(os.path.join(d, "bracket_free.inp"), "L-bracket with bolt hole, C3D4, free-free",
               "mesh_ccx.inp", "BRACKET", freq_step(10))
    ccx(d, "bracket_free", (".dat", ".frd"))
    summary(d, "bracket_free")


def scale_inp_nodes(src, dst, factor):
    """Copy of a ccx mesh deck with every *NODE coordinate multiplied by factor (m -> mm)."""
    out, in_nodes = [], False
    with open(src) as f:
        for line in f.read().splitlines():
            if line.startswith("*"):
                in_nodes = line.upper().replace(" ", "").startswith("*NODE") and \
                    not line.upper().replace(" ", "").startswith("*NODEFILE")
                out.append(line)
            elif in_nodes and line.strip():
                t = [x.strip() for x in line.split(",")]
                out.append(", ".join([t[0]] + ["%.13g" % (float(x) * factor) for x in t[1:4]]))
            else:
                out.append(line)
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


def make_sector():
    """The same cyclic sector in SI and in mm/tonne/s (E in MPa, rho in tonne/mm^3)."""
    d = os.path.join(DATA, "sector")
    print("sector")
    gmsh(d, "sector.geo")
    gmsh_inp_to_ccx(os.path.join(d, "mesh_gmsh.inp"), os.path.join(d, "mesh_ccx.inp"))
    scale_inp_nodes(os.path.join(d, "mesh_ccx.inp"), os.path.join(d, "mesh_mm_ccx.inp"), 1000.0)
    os.remove(os.path.join(d, "mesh_gmsh.inp"))
    os.remove(os.path.join(d, "mesh.msh"))
    write_deck(os.path.join(d, "sector_free.inp"), "30 degree disc sector, C3D10, SI, free-free",
               "mesh_ccx.inp", "SECTOR", freq_step(18))
    with open(os.path.join(d, "sector_mm_free.inp"), "w") as f:
        f.write("*HEADING\n30 degree disc sector, C3D10, mm/tonne/s, free-free\n")
        f.write("*INCLUDE, INPUT=mesh_mm_ccx.inp\n")
        f.write("*MATERIAL, NAME=STEEL\n*ELASTIC\n%s, %s\n*DENSITY\n%s\n"
                "*SOLID SECTION, ELSET=SECTOR, MATERIAL=STEEL\n" % ("%.6g" % (float(E) * 1e-6), NU, "%.6g" % (float(RHO) * 1e-12)))
        f.write("*STEP\n" + freq_step(18) + "*END STEP\n")
    for job in ("sector_free", "sector_mm_free"):
        ccx(d, job, (".dat",))
        summary(d, job)


def make_tiny():
    d = os.path.join(DATA, "tiny")
    print("tiny")
    # hand-written decks (committed); ccx runs on those that have results
    for job in ("c3d8_modal", "c3d20_modal", "c3d10_modal", "features"):
        ccx(d, job, (".dat", ".frd"))
        summary(d, job)
    for job in ("c3d8_mat", "c3d20_mat", "c3d10_mat"):
        ccx(d, job, (".sti", ".mas", ".dof"))


# ---- tied/: one bar, meshed as one block and as two blocks joined by *EQUATION and *TIE -------

TIED_SIZE = (0.4, 0.1, 0.1)  # bar [m] along x; the blocks meet at x = 0.2
# C3D20 corner i (1-based) = (x, y, z) step offsets; mid-side nodes 9..20 on these edges
HEX20_CORNERS = ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))
HEX20_EDGES = ((1, 2), (2, 3), (3, 4), (4, 1), (5, 6), (6, 7), (7, 8), (8, 5), (1, 5), (2, 6), (3, 7), (4, 8))


def hex20_block(x0, x1, n, first_node, first_element):
    """A C3D20 block x0 <= x <= x1 of the bar's section, n = (nx, ny, nz) elements: (nodes, elements,
    the element ids at x = x1 (their face S4), the node ids at x = x0 and at x = x1)."""
    nx, ny, nz = n
    ids, nodes = {}, []
    for i in range(2 * nx + 1):
        for j in range(2 * ny + 1):
            for k in range(2 * nz + 1):
                if (i % 2) + (j % 2) + (k % 2) > 1:
                    continue  # hex20 has no face or body centre nodes
                ids[(i, j, k)] = first_node + len(nodes)
                nodes.append((ids[(i, j, k)], x0 + (x1 - x0) * i / (2 * nx), TIED_SIZE[1] * j / (2 * ny),
                              TIED_SIZE[2] * k / (2 * nz)))
    elements, end = [], []
    for ei in range(nx):
        for ej in range(ny):
            for ek in range(nz):
                corner = [(2 * ei + 2 * a, 2 * ej + 2 * b, 2 * ek + 2 * c) for a, b, c in HEX20_CORNERS]
                mids = [tuple((p + q) // 2 for p, q in zip(corner[a - 1], corner[b - 1])) for a, b in HEX20_EDGES]
                eid = first_element + len(elements)
                elements.append((eid, [ids[c] for c in corner + mids]))
                if ei == nx - 1:
                    end.append(eid)
    low = [ids[key] for key in ids if key[0] == 0]
    high = [ids[key] for key in ids if key[0] == 2 * nx]
    return nodes, elements, end, low, high, ids


def write_id_lines(f, ids):
    for i in range(0, len(ids), 8):
        f.write(", ".join(str(x) for x in ids[i:i + 8]) + "\n")


def write_block(f, nodes, elements, elset):
    f.write("*NODE\n")
    for nid, x, y, z in nodes:
        f.write("%d, %.12g, %.12g, %.12g\n" % (nid, x, y, z))
    f.write("*ELEMENT, TYPE=C3D20, ELSET=%s\n" % elset)
    for eid, conn in elements:
        f.write("%d, %s,\n%s\n" % (eid, ", ".join(map(str, conn[:15])), ", ".join(map(str, conn[15:]))))


def write_two_blocks(f, heading, left, right):
    """The heading, the blocks LEFT and RIGHT (hex20_block results) and the element set BAR of both."""
    f.write("*HEADING\n%s\n" % heading)
    write_block(f, left[0], left[1], "LEFT")
    write_block(f, right[0], right[1], "RIGHT")
    f.write("*ELSET, ELSET=BAR\nLEFT, RIGHT\n")


def make_tied():
    d = os.path.join(DATA, "tied")
    os.makedirs(d, exist_ok=True)
    print("tied")
    step = freq_step(16)
    half = TIED_SIZE[0] / 2
    # one block, 8 x 2 x 2
    nodes, elements, _, _, _, _ = hex20_block(0.0, TIED_SIZE[0], (8, 2, 2), 1, 1)
    with open(os.path.join(d, "one_block.inp"), "w") as f:
        f.write("*HEADING\nBar 0.4 x 0.1 x 0.1 m, C3D20 8 x 2 x 2, free-free\n")
        write_block(f, nodes, elements, "BAR")
        f.write(material_block("BAR") + "*STEP\n" + step + "*END STEP\n")
    # the same mesh in two halves with their own nodes at x = 0.2, joined by *EQUATION
    left = hex20_block(0.0, half, (4, 2, 2), 1, 1)
    right = hex20_block(half, TIED_SIZE[0], (4, 2, 2), 1001, 101)
    with open(os.path.join(d, "equation.inp"), "w") as f:
        write_two_blocks(f, "The bar of one_block.inp as two blocks with their own nodes at x = 0.2, "
                            "joined by *EQUATION (u right - u left = 0)", left, right)
        f.write("*EQUATION\n")
        by_place = {key: nid for key, nid in left[5].items() if key[0] == 8}
        for key, nid in right[5].items():
            if key[0] == 0:
                for dof in (1, 2, 3):
                    f.write("2\n%d, %d, 1., %d, %d, -1.\n" % (nid, dof, by_place[(8,) + key[1:]], dof))
        f.write(material_block("BAR") + "*STEP\n" + step + "*END STEP\n")
    # two blocks whose meshes do not match at x = 0.2, joined by *TIE (right face nodes on the
    # left block's faces)
    right = hex20_block(half, TIED_SIZE[0], (3, 3, 3), 1001, 101)
    with open(os.path.join(d, "tie.inp"), "w") as f:
        write_two_blocks(f, "The bar of one_block.inp as two blocks meshed 4 x 2 x 2 and 3 x 3 x 3, "
                            "joined at x = 0.2 by *TIE", left, right)
        f.write("*ELSET, ELSET=LEFT_END\n")
        write_id_lines(f, left[2])
        f.write("*NSET, NSET=RIGHT_START\n")
        write_id_lines(f, right[3])
        f.write("*SURFACE, NAME=MASTER\nLEFT_END, S4\n*SURFACE, NAME=SLAVE, TYPE=NODE\nRIGHT_START\n"
                "*TIE, NAME=JOINT\nSLAVE, MASTER\n")
        f.write(material_block("BAR") + "*STEP\n" + step + "*END STEP\n")
    for job in ("one_block", "equation", "tie"):
        ccx(d, job, (".dat",))
        summary(d, job)


# ---- rod/: the connecting rods of the flexible slider-crank ----------------------------------

ROD_L = 0.3  # length [m]; both rods run along x from 0 to ROD_L, centred on the x axis
ROD_AXIS = (("AXIS_A", 0.0), ("AXIS_MID", ROD_L / 2), ("AXIS_B", ROD_L))
FRD_MAX = 2 * 1024 * 1024  # a larger .frd is deleted (the .dat is kept)


def flexim_cli():
    p = os.environ.get("FLEXIM_CLI") or os.path.join(ROOT, "build", "app", "flexim-cli")
    if not os.access(p, os.X_OK):
        p = shutil.which("flexim-cli")
    if not p:
        raise SystemExit("needs a built flexim-cli: set FLEXIM_CLI or build the target flexim-cli "
                         "in <repo>/build")
    return os.path.abspath(p)


def set_geo_params(src, dst, params):
    """Copies a .geo, replacing the values of lines 'name = value;' for the names in params."""
    with open(src) as f:
        text = f.read()
    for name, value in params.items():
        text, count = re.subn(r"(?m)^%s = [^;]*;" % name, "%s = %s;" % (name, value), text)
        if count != 1:
            raise SystemExit("%s: no single line '%s = ...;'" % (src, name))
    with open(dst, "w") as f:
        f.write(text)


def inp_nodes(path):
    """{id: (x, y, z)} of the *NODE block of an .inp."""
    nodes = {}
    inside = False
    with open(path) as f:
        for line in f:
            if line.startswith("*"):
                key = line.upper().replace(" ", "").strip()
                inside = key == "*NODE" or key.startswith("*NODE,")
                continue
            if inside and line.strip():
                t = line.split(",")
                nodes[int(t[0])] = tuple(float(x) for x in t[1:4])
    return nodes


def axis_nodes(nodes, path, length=ROD_L):
    """Node ids at (x, 0, 0) for AXIS_A, AXIS_MID, AXIS_B at 0, length/2, length; every one must
    exist exactly."""
    found = []
    for name, x in (("AXIS_A", 0.0), ("AXIS_MID", length / 2), ("AXIS_B", length)):
        hit = [i for i, c in nodes.items() if abs(c[0] - x) <= 1e-12 and c[1] == 0.0 and c[2] == 0.0]
        if len(hit) != 1:
            raise SystemExit("%s: %d nodes at (%g, 0, 0)" % (path, len(hit), x))
        found.append((name, hit[0]))
    return found


def rod_mesh(d, geo, stem, params=None, material=ROD_MATERIAL):
    """Meshes geo (a copy with other parameters when params are given) and writes the ccx deck
    <stem>.inp in d: the converted gmsh mesh inline, node sets AXIS_A/AXIS_MID/AXIS_B, steel
    (material: E, nu, rho) and a free-free *FREQUENCY step. Returns (node count, axis node ids)."""
    if params:
        set_geo_params(os.path.join(DATA, "rod", geo), os.path.join(d, geo), params)
    gmsh(d, geo)
    raw = os.path.join(d, os.path.splitext(geo)[0] + "_gmsh.inp")
    conv = os.path.join(d, stem + "_mesh.tmp")
    gmsh_inp_to_ccx(raw, conv)
    with open(conv) as f:
        mesh = f.read()
    nodes = inp_nodes(conv)
    axis = axis_nodes(nodes, raw, float(params["L"]) if params and "L" in params else ROD_L)
    os.remove(raw)
    os.remove(conv)
    if params:
        os.remove(os.path.join(d, geo))
    title = "%s: %s, %d nodes, C3D10, free-free; steel E = %s Pa, nu = %s, rho = %s kg/m^3" % (
        stem, geo, len(nodes), material[0], material[1], material[2])
    with open(os.path.join(d, stem + ".inp"), "w") as f:
        f.write("*HEADING\n%s\n" % title)
        f.write(mesh)
        for name, node in axis:
            f.write("*NSET, NSET=%s\n%d\n" % (name, node))
        f.write(material_block("ROD", material))
        f.write("*STEP\n" + freq_step(20) + "*END STEP\n")
    return len(nodes), axis


def reduce_rod(d, deck, out, args):
    """flexim-cli reduce <deck> args --out <out> in d; returns the wall time [s]."""
    t0 = time.time()
    log = run([flexim_cli(), "reduce", deck] + args + ["--out", out], d)
    seconds = time.time() - t0
    for line in log.splitlines():
        if line.startswith("assembly"):
            print("  " + line)
    return seconds


def make_rod():
    d = os.path.join(DATA, "rod")
    print("rod")
    for stem, geo in (("rod_round_c3d10", "rod_round.geo"), ("rod_rect_c3d10", "rod_rect.geo")):
        count, axis = rod_mesh(d, geo, stem)
        print("  %s: %d nodes; %s" % (stem, count, ", ".join("%s = node %d" % a for a in axis)))
        ccx(d, stem, (".dat", ".frd"))
        frd = os.path.join(d, stem + ".frd")
        if os.path.getsize(frd) > FRD_MAX:
            print("  %s.frd: %d bytes, deleted" % (stem, os.path.getsize(frd)))
            os.remove(frd)
        summary(d, stem)
        # free-free: 6 rigid + 16 elastic modes (the simulation uses the first 4, 8 or 16)
        reduce_rod(d, stem + ".inp", stem + ".frb", ["--modes", "16"])
        # the examples carry their own copy (installed with them, resources/examples/rod)
        shutil.copyfile(os.path.join(d, stem + ".frb"),
                        os.path.join(ROOT, "resources", "examples", "rod", stem + ".frb"))
    # Craig-Bampton: rigid interfaces on both end faces (reference points = face centroids, on the
    # axis), 8 fixed-interface modes
    reduce_rod(d, "rod_round_c3d10.inp", "rod_round_cb.frb",
               ["--method", "craig-bampton", "--interface", "END_A:rigid", "--interface", "END_B:rigid",
                "--modes", "8"])


def make_clearance_rod():
    """The connecting rod of the slider-crank with a translational clearance joint (Flores et
    al. 2010; Rezaei and Schindler, Table 1): 0.306 m long, 0.038 kg of steel (E = 2e11 Pa,
    rho = 7800 kg/m^3, nu = 0.3), round, 4.5 mm in diameter (A = 1.5904e-5 m^2: 7800 * 0.306 * A =
    0.03796 kg); the round rod's mesh with 2 x 10 layers. Reduced free-free (6 rigid + 8 elastic
    modes, mean axis in the model) with the geometric stiffening load cases."""
    d = os.path.join(DATA, "rod")
    print("rod_clearance")
    stem = "rod_clearance_c3d10"
    count, axis = rod_mesh(d, "rod_round.geo", stem, {"L": 0.306, "r": 0.00225, "n": 10},
                           ("2.0e11", "0.3", "7800"))
    print("  %s: %d nodes; %s" % (stem, count, ", ".join("%s = node %d" % a for a in axis)))
    ccx(d, stem, (".dat",))
    summary(d, stem)
    reduce_rod(d, stem + ".inp", stem + ".frb", ["--modes", "8"])
    shutil.copyfile(os.path.join(d, stem + ".frb"),
                    os.path.join(ROOT, "resources", "examples", "rod", stem + ".frb"))


def make_rod_mesh(target, out):
    """The round rod of rod/rod_round.geo with about `target` nodes, reduced (6 rigid + 8
    elastic free-free modes) into out/rod_round_k<k>_n<n>.frb; the deck (.inp, no ccx run) is
    kept beside it and the axis node ids are printed. The
    mesh is refined in every direction: cross-section spacing and layer thickness both scale
    like (target / 2025)^(1/3) from the fixture's (k = 2 segments per quarter circle, 2 x 20
    layers); the number of layers is then set to come closest to `target`."""
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    if os.path.samefile(out, os.path.join(DATA, "rod")):
        raise SystemExit("rod-mesh: give another folder than tests/data/fe/rod")
    k = max(2, int(round(2 * (target / 2025.0) ** (1.0 / 3))))
    # one layer per half first: (4 * 1 + 1) Q nodes for Q = nodes of one cross-section
    count, _ = rod_mesh(out, "rod_round.geo", "rod_round_probe", {"k": k, "n": 1})
    os.remove(os.path.join(out, "rod_round_probe.inp"))
    q = count // 5
    n = max(1, int(round((float(target) / q - 1) / 4)))
    stem = "rod_round_k%d_n%d" % (k, n)
    count, axis = rod_mesh(out, "rod_round.geo", stem, {"k": k, "n": n})
    print("  %s.inp: %d nodes (k = %d, n = %d); %s" % (
        stem, count, k, n, ", ".join("%s = node %d" % a for a in axis)))
    seconds = reduce_rod(out, stem + ".inp", stem + ".frb", ["--modes", "8"])
    print("  reduce: %.1f s wall; written %s" % (seconds, os.path.join(out, stem + ".frb")))


def main(argv):
    if argv[:1] == ["rod-mesh"]:
        if len(argv) != 3 or not argv[1].isdigit():
            raise SystemExit("usage: make_fixtures.py rod-mesh NODES DIR")
        if not shutil.which("gmsh"):
            raise SystemExit("needs gmsh (Debian package gmsh)")
        make_rod_mesh(int(argv[1]), argv[2])
        return
    for tool in ("gmsh", "ccx"):
        if not shutil.which(tool):
            raise SystemExit("needs %s (Debian packages gmsh, calculix-ccx)" % tool)
    parts = {"beam": make_beam, "conrod": make_conrod, "bracket": make_bracket, "tiny": make_tiny,
             "rod": make_rod, "rod_clearance": make_clearance_rod, "sector": make_sector, "tied": make_tied}
    for name in (argv or list(parts)):
        parts[name]()


if __name__ == "__main__":
    main(sys.argv[1:])

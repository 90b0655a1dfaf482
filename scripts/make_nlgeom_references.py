#!/usr/bin/env python3
"""Independent nonlinear references for geometric stiffening, computed by CalculiX 2.20
(ccx, Debian package calculix-ccx) with implicit direct-integration dynamics and NLGEOM on structured
C3D20R brick meshes. Standard library only (no numpy).

    python3 scripts/make_nlgeom_references.py            # write the decks, run ccx, write the CSVs
    python3 scripts/make_nlgeom_references.py --decks-only
    python3 scripts/make_nlgeom_references.py --only spin_up_beam,soft_pendulum_stiff --jobs 1
    python3 scripts/make_nlgeom_references.py --summary     # figures from the existing CSVs
    python3 scripts/make_nlgeom_references.py --from-dat spin_up_beam path/to/spin_up_beam.dat

Cases (CASES below): spin_up_beam (the reference: 20 x 2 x 1 C3D20R, dt 0.02 s, 0..16 s) with the
checks spin_up_beam_mesh40 (40 x 2 x 1, dt 0.02 s) and spin_up_beam_mesh40_dt010 (40 x 2 x 1,
dt 0.01 s), both 0..8 s; soft_pendulum (the reference: 40 x 2 x 1, dt 0.002 s, 0..2 s) with the
checks soft_pendulum_dt004 (40 elements, dt 0.004 s), soft_pendulum_mesh20 (20 elements,
dt 0.004 s) and soft_pendulum_stiff (E x 100, 20 elements, dt 0.004 s, against the rigid
pendulum), all 0..1.2 s. Each ccx increment costs ~0.9 CPU-s; everything takes ~1 h of one core.

Writes into tests/reference/nlgeom/ (see README.md there):
  mesh_*.inp               structured C3D20R meshes (included by the decks)
  spin_up_amplitude.inp    the hub angle theta(t) of Kane, Ryan & Banerjee (1987) as a tabular amplitude
  <case>.inp               one deck per case (CASES below)
  <case>.csv               the extracted time history of each case
  soft_pendulum_rigid.csv  the rigid compound pendulum (RK4) for comparison
ccx runs in a temporary directory (the .frd/.dat/.sta outputs are not kept), always as
`nice -n 19` with OMP_NUM_THREADS=1.

1. Spin-up beam (Kane, Ryan & Banerjee, J. Guidance 10(2), 1987): L = 10 m, EI = 14 000 N m^2,
   rho A = 1.2 kg/m, EA = 2.8e7 N (Kane's E = 7e10, A = 4e-4, I = 2e-7 give the same three numbers).
   Solid square section a x a with a^2/12 = I/A = 5e-4 m^2: a = 0.0774597 m, E = 4.6667e9 Pa,
   rho = 200 kg/m^3, nu = 0.3. The beam lies along +x (root face x = 0, centred on the axis),
   the hub turns about +z through the root-face centre; the root face is a *RIGID BODY whose
   REF node (origin) is fixed and whose ROT node has rotations x, y = 0 and z = theta(t).
   Output: tip-face-centre transverse deflection v in the hub frame (e_t = (-sin th, cos th)) and
   axial displacement u (e_a = (cos th, sin th)), u = p . e_a - L (negative = shortening).
2. Soft pendulum: L = 1 m, 20 mm (z) x 10 mm (y) section, rho = 7850, nu = 0.3, E = 5e9 Pa
   (soft: first pinned-free bending mode 5.6 Hz); the x = 0 end face is a *RIGID BODY whose REF node
   (end-face centre, origin) is fixed in translation and whose ROT node has rotations x, y = 0 and z
   free (revolute about z). Released at rest, horizontal along +x, gravity 9.81 in -y.
   Output: tip-face-centre position (x, y), hinge angle (ROT node dof 3), and the tip's transverse
   deflection in the hinge frame.
"""

import argparse
import concurrent.futures
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "reference", "nlgeom")

# ---------------------------------------------------------------- problem data
SPIN = dict(L=10.0, a=math.sqrt(12 * 5e-4), nu=0.3, Ts=15.0, Om=6.0, t_end=16.0)
SPIN["E"] = 14000.0 / (SPIN["a"] ** 4 / 12.0)          # EI = 14000
SPIN["rho"] = 1.2 / SPIN["a"] ** 2                      # rho A = 1.2
PEND = dict(L=1.0, h=0.010, b=0.020, E=5.0e9, E_stiff=5.0e11, nu=0.3, rho=7850.0, g=9.81, t_end=2.0)

AMP_DT = 0.01            # spacing of the tabular hub-angle amplitude up to Ts (= the smallest time increment used)
REF, ROT = 900001, 900002


def theta_spin(t, Ts=SPIN["Ts"], Om=SPIN["Om"]):
    if t < Ts:
        return Om / Ts * (t * t / 2 + (Ts / (2 * math.pi)) ** 2 * (math.cos(2 * math.pi * t / Ts) - 1))
    return Om * (t - Ts / 2)


# ---------------------------------------------------------------- mesh
def brick_mesh(nx, ny, nz, L, hy, bz, first_node=1):
    """Structured C3D20R mesh of the box [0, L] x [-hy/2, hy/2] x [-bz/2, bz/2].
    Nodes sit on the quadratic lattice (i, j, k), i = 0..2nx etc., where at most one index is odd.
    Returns (nodes {id: (x, y, z)}, lattice {(i, j, k): id}, elements [(id, [20 node ids])])."""
    lattice, nodes = {}, {}
    nid = first_node
    for i in range(2 * nx + 1):
        for j in range(2 * ny + 1):
            for k in range(2 * nz + 1):
                if (i % 2) + (j % 2) + (k % 2) > 1:
                    continue
                lattice[(i, j, k)] = nid
                nodes[nid] = (L * i / (2 * nx), hy * (j / (2 * ny) - 0.5), bz * (k / (2 * nz) - 0.5))
                nid += 1
    loc = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (0, 0, 2), (2, 0, 2), (2, 2, 2), (0, 2, 2),
           (1, 0, 0), (2, 1, 0), (1, 2, 0), (0, 1, 0), (1, 0, 2), (2, 1, 2), (1, 2, 2), (0, 1, 2),
           (0, 0, 1), (2, 0, 1), (2, 2, 1), (0, 2, 1)]
    elems, eid = [], 1
    for ex in range(nx):
        for ey in range(ny):
            for ez in range(nz):
                elems.append((eid, [lattice[(2 * ex + a, 2 * ey + b, 2 * ez + c)] for a, b, c in loc]))
                eid += 1
    return nodes, lattice, elems


def mesh_text(title, nx, ny, nz, L, hy, bz):
    nodes, lat, elems = brick_mesh(nx, ny, nz, L, hy, bz)
    s = ["** %s\n** C3D20R, %d x %d x %d = %d elements, %d nodes; box [0, %g] x [-%g, %g] x [-%g, %g] m\n"
         % (title, nx, ny, nz, len(elems), len(nodes), L, hy / 2, hy / 2, bz / 2, bz / 2)]
    s.append("*NODE, NSET=NALL\n")
    s += ["%d, %.10g, %.10g, %.10g\n" % (n, *x) for n, x in sorted(nodes.items())]
    s.append("*ELEMENT, TYPE=C3D20R, ELSET=EALL\n")
    for eid, c in elems:
        s.append("%d, %s,\n%s\n" % (eid, ", ".join(map(str, c[:15])), ", ".join(map(str, c[15:]))))
    root = [n for (i, j, k), n in sorted(lat.items()) if i == 0]
    s.append("*NSET, NSET=ROOTFACE\n")
    s += ["%d,\n" % n for n in root]
    tipc = lat[(2 * nx, ny, nz)]
    s.append("*NSET, NSET=TIPC\n%d,\n" % tipc)
    rootc = lat[(0, ny, nz)]
    s.append("*NSET, NSET=ROOTC\n%d,\n" % rootc)
    return "".join(s), tipc, rootc, len(nodes), len(elems)


MESHES = {
    "mesh_spin_40x2x1.inp": ("spin-up beam, 10 m, square 0.0774597 m", 40, 2, 1, SPIN["L"], SPIN["a"], SPIN["a"]),
    "mesh_spin_20x2x1.inp": ("spin-up beam, 10 m, square 0.0774597 m", 20, 2, 1, SPIN["L"], SPIN["a"], SPIN["a"]),
    "mesh_pend_40x2x1.inp": ("soft pendulum, 1 m, 10 mm (y) x 20 mm (z)", 40, 2, 1, PEND["L"], PEND["h"], PEND["b"]),
    "mesh_pend_20x2x1.inp": ("soft pendulum, 1 m, 10 mm (y) x 20 mm (z)", 20, 2, 1, PEND["L"], PEND["h"], PEND["b"]),
}


def amplitude_text():
    n = int(round(SPIN["Ts"] / AMP_DT)) + 1
    s = ["** hub angle theta(t) [rad], Kane et al. 1987, Ts = %g s, Omega_s = %g rad/s, every %g s up to Ts,\n"
         "** linear after Ts (one more point at t = %g s)\n"
         % (SPIN["Ts"], SPIN["Om"], AMP_DT, 40.0), "*AMPLITUDE, NAME=THETA\n"]
    row = []
    for t in [i * AMP_DT for i in range(n)] + [40.0]:
        row.append("%.5g, %.12g" % (t, theta_spin(t)))
        if len(row) == 4:
            s.append(", ".join(row) + "\n")
            row = []
    if row:
        s.append(", ".join(row) + "\n")
    return "".join(s)


# ---------------------------------------------------------------- decks
def rigid_root(nset="ROOTFACE"):
    return ("*NODE, NSET=REFN\n%d, 0, 0, 0\n*NODE, NSET=ROTN\n%d, 0, 0, 0\n"
            "*RIGID BODY, NSET=%s, REF NODE=%d, ROT NODE=%d\n" % (REF, ROT, nset, REF, ROT))


def step_text(dt, t_end, out_dt, body, alpha):
    out_every = int(round(out_dt / dt))
    assert abs(out_every * dt - out_dt) < 1e-12
    return ("*STEP, NLGEOM, INC=1000000\n*DYNAMIC, DIRECT, ALPHA=%g\n%g, %g, %g, %g\n%s"
            "*NODE PRINT, NSET=TIPC, FREQUENCY=%d\nU\n"
            "*NODE PRINT, NSET=ROOTC, FREQUENCY=%d\nU\n"
            "*NODE PRINT, NSET=ROTN, FREQUENCY=%d\nU\n*END STEP\n"
            % (alpha, dt, t_end, dt, dt, body, out_every, out_every, out_every))


def spin_deck(mesh, dt, t_end, out_dt=0.05, alpha=-0.05, E_scale=1.0):
    p = SPIN
    s = "*HEADING\nspin-up beam (Kane, Ryan & Banerjee 1987), %s, dt = %g s\n" % (mesh, dt)
    s += "*INCLUDE, INPUT=%s\n" % mesh
    s += rigid_root()
    s += "*INCLUDE, INPUT=spin_up_amplitude.inp\n"
    s += "*MATERIAL, NAME=KANE\n*ELASTIC\n%.10g, %g\n*DENSITY\n%.10g\n" % (p["E"] * E_scale, p["nu"], p["rho"])
    s += "*SOLID SECTION, ELSET=EALL, MATERIAL=KANE\n"
    s += "*BOUNDARY\n%d, 1, 3, 0\n%d, 1, 2, 0\n" % (REF, ROT)
    body = "*BOUNDARY, AMPLITUDE=THETA\n%d, 3, 3, 1.0\n" % ROT
    return s + step_text(dt, t_end, out_dt, body, alpha)


def pend_deck(mesh, dt, t_end, E, out_dt=0.01, alpha=-0.05):
    p = PEND
    s = "*HEADING\nsoft pendulum, %s, E = %g Pa, dt = %g s\n" % (mesh, E, dt)
    s += "*INCLUDE, INPUT=%s\n" % mesh
    s += rigid_root()
    s += "*AMPLITUDE, NAME=ON\n0, 1, 1000, 1\n"
    s += "*MATERIAL, NAME=SOFT\n*ELASTIC\n%.10g, %g\n*DENSITY\n%.10g\n" % (E, p["nu"], p["rho"])
    s += "*SOLID SECTION, ELSET=EALL, MATERIAL=SOFT\n"
    s += "*BOUNDARY\n%d, 1, 3, 0\n%d, 1, 2, 0\n" % (REF, ROT)
    body = "*DLOAD, AMPLITUDE=ON\nEALL, GRAV, %g, 0, -1, 0\n" % p["g"]
    return s + step_text(dt, t_end, out_dt, body, alpha)


T_SPIN, T_PEND = SPIN["t_end"], PEND["t_end"]
T_CHECK_SPIN, T_CHECK_PEND = 8.0, 1.2     # the check runs stop earlier (2 shared cores, ~2 h budget)
CASES = {
    # name: (kind, deck text builder). The first of each kind is the reference written as <kind>.csv;
    # the others check it (COMPARE: which run each one is compared with, and what differs).
    "spin_up_beam": ("spin", lambda: spin_deck("mesh_spin_20x2x1.inp", 0.02, T_SPIN, out_dt=0.02)),
    "spin_up_beam_mesh40": ("spin", lambda: spin_deck("mesh_spin_40x2x1.inp", 0.02, T_CHECK_SPIN, out_dt=0.02)),
    "spin_up_beam_mesh40_dt010": ("spin", lambda: spin_deck("mesh_spin_40x2x1.inp", 0.01, T_CHECK_SPIN, out_dt=0.05)),
    "soft_pendulum": ("pend", lambda: pend_deck("mesh_pend_40x2x1.inp", 0.002, T_PEND, PEND["E"])),
    "soft_pendulum_dt004": ("pend", lambda: pend_deck("mesh_pend_40x2x1.inp", 0.004, T_CHECK_PEND, PEND["E"], out_dt=0.02)),
    "soft_pendulum_mesh20": ("pend", lambda: pend_deck("mesh_pend_20x2x1.inp", 0.004, T_CHECK_PEND, PEND["E"], out_dt=0.02)),
    "soft_pendulum_stiff": ("pend", lambda: pend_deck("mesh_pend_20x2x1.inp", 0.004, T_CHECK_PEND, PEND["E_stiff"], out_dt=0.02)),
}
DEFAULT_RUN = ["spin_up_beam", "soft_pendulum", "spin_up_beam_mesh40", "spin_up_beam_mesh40_dt010",
               "soft_pendulum_stiff", "soft_pendulum_dt004", "soft_pendulum_mesh20"]
COMPARE = {"spin_up_beam_mesh40": ("spin_up_beam", "mesh 20 -> 40 elements, dt = 0.02 s"),
           "spin_up_beam_mesh40_dt010": ("spin_up_beam_mesh40", "dt 0.02 -> 0.01 s, 40 elements"),
           "soft_pendulum_dt004": ("soft_pendulum", "dt 0.002 -> 0.004 s, 40 elements"),
           "soft_pendulum_mesh20": ("soft_pendulum_dt004", "mesh 40 -> 20 elements, dt = 0.004 s")}


def needed_files(text):
    return re.findall(r"\*INCLUDE, INPUT=(\S+)", text)


# ---------------------------------------------------------------- ccx run and .dat parsing
def run_ccx(name):
    """Run <name>.inp from OUT in a temporary directory; return (dat text, wall seconds)."""
    tmp = tempfile.mkdtemp(prefix="nlgeom_%s_" % name)
    try:
        deck = open(os.path.join(OUT, name + ".inp")).read()
        shutil.copy(os.path.join(OUT, name + ".inp"), tmp)
        for f in needed_files(deck):
            shutil.copy(os.path.join(OUT, f), tmp)
        env = dict(os.environ, OMP_NUM_THREADS="1", CCX_NPROC_EQUATION_SOLVER="1")
        t0 = time.time()
        with open(os.path.join(tmp, "ccx.log"), "w") as log:
            r = subprocess.run(["nice", "-n", "19", "ccx", "-i", name], cwd=tmp, env=env, stdout=log,
                               stderr=subprocess.STDOUT)
        wall = time.time() - t0
        logtext = open(os.path.join(tmp, "ccx.log")).read()
        if r.returncode != 0 or "*ERROR" in logtext:
            sys.stderr.write(logtext[-3000:])
            raise RuntimeError("ccx failed for %s (see %s)" % (name, tmp))
        dat = open(os.path.join(tmp, name + ".dat")).read()
    except Exception:
        raise
    shutil.rmtree(tmp)
    return dat, wall


def parse_dat(dat):
    """{set name: [(t, {node: (ux, uy, uz)})]} from the 'displacements (vx,vy,vz) for set X and time T' blocks."""
    out = {}
    cur = None
    for line in dat.splitlines():
        m = re.match(r"\s*displacements \(vx,vy,vz\) for set (\S+) and time\s+(\S+)", line)
        if m:
            cur = {}
            out.setdefault(m.group(1), []).append((float(m.group(2)), cur))
            continue
        f = line.split()
        if cur is not None and len(f) == 4:
            try:
                cur[int(f[0])] = tuple(float(v) for v in f[1:])
            except ValueError:
                cur = None
    return out


def series(blocks, setname):
    """[(t, (ux, uy, uz))] of the single node of set setname, with t = 0 (at rest, undeformed) first."""
    rows = [(0.0, (0.0, 0.0, 0.0))]
    for t, d in blocks[setname.upper()]:
        (u,) = d.values()
        if t > rows[-1][0] + 1e-9:
            rows.append((t, u))
    return rows


# ---------------------------------------------------------------- post-processing
def tip_in_frame(L, u, angle):
    """The tip position p = (L + ux, uy) and, in the frame turned by angle, its transverse
    deflection p . (-sin, cos) and axial displacement p . (cos, sin) - L."""
    px, py = L + u[0], u[1]
    c, s = math.cos(angle), math.sin(angle)
    return px, py, -s * px + c * py, c * px + s * py - L


def post_spin(name, dat):
    b = parse_dat(dat)
    tip, rot, root = series(b, "TIPC"), series(b, "ROTN"), series(b, "ROOTC")
    L = SPIN["L"]
    rows = []
    for (t, u), (_, r), (_, u0) in zip(tip, rot, root):
        th = theta_spin(t)
        px, py, v, ua = tip_in_frame(L, u, th)
        rows.append((t, th, r[2], v, ua, u[2], px, py, math.hypot(u0[0], u0[1])))
    hdr = ("t_s,theta_prescribed_rad,theta_rotnode_rad,tip_transverse_deflection_m,tip_axial_displacement_m,"
           "tip_uz_m,tip_x_m,tip_y_m,root_centre_drift_m")
    write_csv(name, hdr, rows, "%.4f,%.9f,%.9f,%.7e,%.7e,%.3e,%.9f,%.9f,%.2e")
    return rows


def post_pend(name, dat):
    b = parse_dat(dat)
    tip, rot, root = series(b, "TIPC"), series(b, "ROTN"), series(b, "ROOTC")
    L = PEND["L"]
    rows = []
    for (t, u), (_, r), (_, u0) in zip(tip, rot, root):
        ph = r[2]
        px, py, v, ua = tip_in_frame(L, u, ph)
        rows.append((t, px, py, ph, v, ua, u[2], math.hypot(u0[0], u0[1])))
    hdr = ("t_s,tip_x_m,tip_y_m,hinge_angle_rad,tip_transverse_deflection_m,tip_axial_displacement_m,"
           "tip_uz_m,pin_centre_drift_m")
    write_csv(name, hdr, rows, "%.3f,%.9f,%.9f,%.9f,%.7e,%.7e,%.3e,%.2e")
    return rows


def write_csv(name, hdr, rows, fmt):
    with open(os.path.join(OUT, name + ".csv"), "w") as f:
        f.write(hdr + "\n")
        for r in rows:
            f.write(fmt % r + "\n")


def read_csv(name):
    with open(os.path.join(OUT, name + ".csv")) as f:
        hdr = f.readline().strip().split(",")
        return hdr, [tuple(float(v) for v in l.split(",")) for l in f if l.strip()]


def rigid_pendulum(t_end=PEND["t_end"], dt=1e-4, out=0.01):
    """Rigid compound pendulum with the bar's mass and inertia about the pin (box L x h about z):
    I phi'' = -m g (L/2) cos phi, phi(0) = 0, phi'(0) = 0. Classical RK4."""
    p = PEND
    m = p["rho"] * p["L"] * p["h"] * p["b"]
    I = m * (p["L"] ** 2 / 3 + p["h"] ** 2 / 12)
    k = m * p["g"] * p["L"] / 2 / I

    def f(y):
        return (y[1], -k * math.cos(y[0]))

    y, t, rows = (0.0, 0.0), 0.0, [(0.0, p["L"], 0.0, 0.0, 0.0)]
    nsub = int(round(out / dt))
    for i in range(int(round(t_end / out))):
        for _ in range(nsub):
            k1 = f(y)
            k2 = f((y[0] + dt / 2 * k1[0], y[1] + dt / 2 * k1[1]))
            k3 = f((y[0] + dt / 2 * k2[0], y[1] + dt / 2 * k2[1]))
            k4 = f((y[0] + dt * k3[0], y[1] + dt * k3[1]))
            y = (y[0] + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
                 y[1] + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]))
        t = (i + 1) * out
        rows.append((t, p["L"] * math.cos(y[0]), p["L"] * math.sin(y[0]), y[0], y[1]))
    return rows


# ---------------------------------------------------------------- summary
def common(r, q):
    """Rows of r and q at the same output times: [(row_r, row_q)]."""
    qd = {round(x[0], 6): x for x in q}
    return [(x, qd[round(x[0], 6)]) for x in r if round(x[0], 6) in qd]


def turning(rows, col, lo, hi, sign):
    """(t, value) of the extreme (sign = +1 max, -1 min) of column col for lo <= t <= hi, refined by a parabola."""
    idx = [i for i, x in enumerate(rows) if lo <= x[0] <= hi]
    i = max(idx, key=lambda i: sign * rows[i][col])
    if 0 < i < len(rows) - 1:
        (t0, y0), (t1, y1), (t2, y2) = [(rows[k][0], rows[k][col]) for k in (i - 1, i, i + 1)]
        h = t1 - t0
        den = y0 - 2 * y1 + y2
        if den != 0 and abs(t2 - t1 - h) < 1e-9:
            d = 0.5 * (y0 - y2) / den
            return t1 + d * h, y1 - 0.25 * (y0 - y2) * d
    return rows[i][0], rows[i][col]


def summary():
    lines = []

    def have(n):
        return os.path.exists(os.path.join(OUT, n + ".csv"))

    if have("spin_up_beam"):
        _, r = read_csv("spin_up_beam")
        tmin, vmin = turning(r, 3, 0, 99, -1)
        tmax, vmax = turning(r, 3, 0, 99, +1)
        tu, umin = turning(r, 4, 0, 99, -1)
        late = [x for x in r if x[0] >= SPIN["Ts"]] or [(float("nan"),) * 9]
        lines.append("spin_up_beam (t <= %.2f s): min tip deflection %.5f m at t = %.2f s; max %.5f m at t = %.2f s; "
                     "min axial displacement %.6f m at t = %.2f s; for t >= Ts: v in [%.5f, %.5f] m, u in [%.6f, %.6f] m"
                     % (r[-1][0], vmin, tmin, vmax, tmax, umin, tu, min(x[3] for x in late), max(x[3] for x in late),
                        min(x[4] for x in late), max(x[4] for x in late)))
        lines.append("  max |theta_rotnode - theta|: %.2e rad, max root-centre drift %.2e m, max |tip uz| %.1e m"
                     % (max(abs(x[2] - x[1]) for x in r), max(x[8] for x in r), max(abs(x[5]) for x in r)))
        if have("spin_up_beam_mesh40_dt010"):
            _, q = read_csv("spin_up_beam_mesh40_dt010")
            c = common(r, q)
            lines.append("  spin_up_beam vs spin_up_beam_mesh40_dt010 (both mesh and dt refined): max |dv| = %.2e m, "
                         "max |du| = %.2e m at %d common times up to %.2f s"
                         % (max(abs(a[3] - b[3]) for a, b in c), max(abs(a[4] - b[4]) for a, b in c), len(c), c[-1][0][0]))
        for v in ("spin_up_beam_mesh40", "spin_up_beam_mesh40_dt010"):
            if have(v) and have(COMPARE[v][0]):
                _, q = read_csv(v)
                _, r0 = read_csv(COMPARE[v][0])
                c = common(r0, q)
                dv = max(abs(a[3] - b[3]) for a, b in c)
                du = max(abs(a[4] - b[4]) for a, b in c)
                t2, v2 = turning(q, 3, 0, 99, -1)
                lines.append("  %s vs %s (%s): max |dv| = %.2e m, max |du| = %.2e m at %d common times up to %.2f s; "
                             "its min v = %.5f m at %.2f s" % (v, COMPARE[v][0], COMPARE[v][1], dv, du, len(c),
                                                                c[-1][0][0], v2, t2))
    if have("soft_pendulum"):
        rig = rigid_pendulum()
        write_csv("soft_pendulum_rigid", "t_s,tip_x_m,tip_y_m,hinge_angle_rad,hinge_rate_rad_s", rig,
                  "%.3f,%.9f,%.9f,%.9f,%.9f")
        tr1, pr1 = turning(rig, 3, 0.5, 1.5, -1)
        tr2, pr2 = turning(rig, 3, 1.5, 99, +1)
        lines.append("rigid pendulum: hinge angle min %.5f rad at %.4f s, back at max %.5f rad at %.4f s"
                     % (pr1, tr1, pr2, tr2))
        for v in ("soft_pendulum", "soft_pendulum_stiff", "soft_pendulum_dt004", "soft_pendulum_mesh20"):
            if not have(v):
                continue
            _, r = read_csv(v)
            c = common(r, rig)
            d = [(math.hypot(a[1] - b[1], a[2] - b[2]), a[0]) for a, b in c]
            dmax = max(d)
            j = max(range(len(r)), key=lambda i: abs(r[i][4]))
            dph = max(abs(a[3] - b[3]) for a, b in c)
            t1, p1 = turning(r, 3, 0.5, 1.5, -1)
            t2, p2 = turning(r, 3, 1.5, 99, +1) if r[-1][0] > 1.6 else (float("nan"), float("nan"))
            lines.append("%s: max |tip - rigid tip| = %.5f m at t = %.2f s; max |transverse defl. in hinge frame| "
                         "= %.5f m at t = %.2f s; max |hinge angle - rigid| = %.4f rad; max pin drift %.1e m; "
                         "hinge angle min %.5f rad at %.4f s, back at max %.5f rad at %.4f s"
                         % (v, dmax[0], dmax[1], abs(r[j][4]), r[j][0], dph, max(x[7] for x in r), p1, t1, p2, t2))
        for v in ("soft_pendulum_dt004", "soft_pendulum_mesh20"):
            if have(v) and have(COMPARE[v][0]):
                _, q = read_csv(v)
                _, r = read_csv(COMPARE[v][0])
                c = common(r, q)
                dp = max(math.hypot(a[1] - b[1], a[2] - b[2]) for a, b in c)
                dv = max(abs(a[4] - b[4]) for a, b in c)
                lines.append("  %s vs %s (%s): max |d tip position| = %.2e m, max |d transverse defl.| = %.2e m "
                             "at %d common times up to %.2f s" % (v, COMPARE[v][0], COMPARE[v][1], dp, dv, len(c),
                                                                  c[-1][0][0]))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks-only", action="store_true", help="write the decks, run nothing")
    ap.add_argument("--only", default="", help="comma-separated case names (default: %s)" % ",".join(DEFAULT_RUN))
    ap.add_argument("--summary", action="store_true", help="only print the summary of the existing CSVs")
    ap.add_argument("--from-dat", nargs=2, metavar=("CASE", "DAT"),
                    help="only extract CASE's CSV from an existing ccx .dat file")
    ap.add_argument("--jobs", type=int, default=2, help="ccx runs at the same time (default 2)")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    if a.summary:
        print(summary())
        return
    if a.from_dat:
        name, dat = a.from_dat
        (post_spin if CASES[name][0] == "spin" else post_pend)(name, open(dat).read())
        print(summary())
        return
    for fn, spec in MESHES.items():
        text, tipc, rootc, nn, ne = mesh_text(*spec)
        with open(os.path.join(OUT, fn), "w") as f:
            f.write(text)
        print("%s: %d nodes, %d elements, tip-centre node %d, root-centre node %d" % (fn, nn, ne, tipc, rootc))
    with open(os.path.join(OUT, "spin_up_amplitude.inp"), "w") as f:
        f.write(amplitude_text())
    for name, (kind, build) in CASES.items():
        with open(os.path.join(OUT, name + ".inp"), "w") as f:
            f.write(build())
    if a.decks_only:
        return
    todo = [s for s in a.only.split(",") if s] or DEFAULT_RUN

    def one(name):
        dat, wall = run_ccx(name)
        (post_spin if CASES[name][0] == "spin" else post_pend)(name, dat)
        print("%s: ccx wall time %.0f s" % (name, wall), flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for f in [ex.submit(one, n) for n in todo]:
            f.result()
    print(summary())


if __name__ == "__main__":
    main()

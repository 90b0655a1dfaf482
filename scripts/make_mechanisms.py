#!/usr/bin/env python3
"""Write the closed-loop benchmark mechanisms as Flexim model files.

    scripts/make_mechanisms.py [--check]

Writes, relative to the repository root:

  resources/examples/n_four_bar_2.json        IFToMM A02 N-four-bar, N = 2   (revolute joints only)
  resources/examples/n_four_bar_10.json       IFToMM A02 N-four-bar, N = 10  (revolute joints only)
  resources/examples/bricard.json             IFToMM A04 Bricard mechanism  (six revolute joints)
  resources/examples/andrews_squeezer.json    Andrews' squeezing mechanism  (ten revolute joints)

and the non-redundant substitutes of the same mechanisms (same bodies, same motion, a joint set with
no dependent rows), which the tests compare against and which today's solver can run:

  tests/core/data/closed_loop/n_four_bar_2_nonredundant.json
  tests/core/data/closed_loop/n_four_bar_10_nonredundant.json
  tests/core/data/closed_loop/bricard_cylindrical.json
  tests/core/data/closed_loop/andrews_squeezer_nonredundant.json

--check writes nothing and exits 1 if a committed file differs from what the script would write.
Standard library only. The derivations are in the models' descriptions and in
tests/core/closed_loop_test.cpp.
"""

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "resources", "examples")
TESTDATA = os.path.join(ROOT, "tests", "core", "data", "closed_loop")


# --- JSON in the layout of the committed examples ------------------------------------------------
def num(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


def inline(v):
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + inline(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(inline(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return num(v)


def flat(v):
    """An object none of whose values holds an object (a joint, a sensor, a marker, the settings)."""
    return isinstance(v, dict) and not any(
        isinstance(x, dict) or (isinstance(x, list) and any(isinstance(y, dict) for y in x)) for x in v.values())


def dump(v, indent=0, prefix=""):
    """Flat objects, arrays of numbers and anything that fits in 100 columns on one line, else one
    item per line."""
    pad = " " * indent
    one = inline(v)
    if not isinstance(v, (dict, list)) or len(pad) + len(prefix) + len(one) <= 100 or flat(v) or (
            isinstance(v, list) and all(isinstance(x, (int, float)) for x in v)):
        return pad + prefix + one
    if isinstance(v, dict):
        items = [dump(x, indent + 2, json.dumps(k) + ": ") for k, x in v.items()]
        return pad + prefix + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [dump(x, indent + 2) for x in v]
    return pad + prefix + "[\n" + ",\n".join(items) + "\n" + pad + "]"


def marker(name, position, z_axis=None, x_axis=None):
    m = {"name": name, "position": list(position)}
    if z_axis is not None:
        m["z_axis"] = list(z_axis)
    if x_axis is not None:
        m["x_axis"] = list(x_axis)
    return m


def joint(name, kind, body1, marker1, body2, marker2):
    return {"name": name, "type": kind, "body1": body1, "marker1": marker1, "body2": body2, "marker2": marker2}


def clean(x, digits=15):
    """Round away the last-bit noise of sums like 0.01874 - 0.018 so the files read well: 15
    significant digits, and nothing below 1e-12 m (the data have 5 decimals)."""
    return [0.0 if abs(c) < 1e-15 else float("%.*g" % (digits, round(c, 12))) for c in x]


# --- IFToMM A02: N four-bar mechanism ---------------------------------------------------------------
def n_four_bar(n, nonredundant=False):
    """N + 1 cranks (1 m, 1 kg) pinned to ground at x = 0..N, tips joined by N couplers (1 m, 1 kg).

    All cranks stay parallel (the links form N parallelograms), so the mechanism moves as one crank
    angle theta with J theta'' = -G cos(theta): J = m L^2 ((N + 1)/3 + N), G = m g L ((N + 1)/2 + N)
    (derivation in tests/core/closed_loop_test.cpp)."""
    L, mass, g = 1.0, 1.0, 9.81
    it = mass * L * L / 12  # slender bar about its centre
    ia = 1e-4               # about its own axis: never enters the planar motion
    name = "n_four_bar_%d" % n + ("_nonredundant" if nonredundant else "")
    joints_text = (
        "Every joint is a revolute about global z: (N + 1) + 2N = %d revolutes, %d rows for %d coordinates; "
        "the N loops are planar, so in 3-D each repeats 3 rows (%d dependent rows) and the mechanism has "
        "1 degree of freedom." % (3 * n + 1, 5 * (3 * n + 1), 6 * (2 * n + 1), 3 * n))
    if nonredundant:
        joints_text = (
            "Non-redundant substitute (test data): the crank pivots are revolutes about global z, each coupler "
            "is held by a universal joint at its left end (pins: global z on the crank, the coupler's in-plane "
            "normal y on the coupler) and a spherical joint at its right end: 5(N + 1) + 4N + 3N = %d rows for "
            "%d coordinates, no dependent row, 1 degree of freedom; the motion is the same." %
            (12 * n + 5, 6 * (2 * n + 1)))
    desc = (
        "IFToMM multibody benchmark A02, the N-four-bar mechanism with N = %d: %d cranks of length 1 m and "
        "mass 1 kg (uniform slender bars, inertia m L^2/12 across) pinned to the ground at A_i = (i, 0, 0), "
        "i = 0..%d, their tips B_i joined by %d couplers of 1 m and 1 kg. Gravity -9.81 m/s^2 along y. "
        "Start: cranks vertical (theta = pi/2 from +x), the first crank tip B_0 moving at 1 m/s along +x "
        "(theta' = -1 rad/s; every crank turns at -1 rad/s, every coupler translates at 1 m/s). %s "
        "The cranks stay parallel, so theta obeys J theta'' = -G cos(theta) with J = m L^2 ((N+1)/3 + N) = "
        "%s kg m^2 and G = m g L ((N+1)/2 + N) = %s N m; the energy is enough to go over the top, so the "
        "cranks turn round and the links lie aligned on the x axis (a singular configuration where the "
        "mobility jumps from 1 to N + 1) at every theta = 0 and pi. Sensor crank0: theta (the pivot's "
        "coordinate, from ground x to the crank), theta' and the pivot reaction; B0: the first crank tip." %
        (n, n + 1, n, n, joints_text, num((n + 1) / 3 + n), num(g * ((n + 1) / 2 + n))))
    ground = [marker("A%d" % i, (i, 0, 0)) for i in range(n + 1)]
    bodies, joints = [], []
    for i in range(n + 1):
        bodies.append({
            "name": "crank%d" % i, "mass": mass, "inertia": [it, ia, it],
            "position": [i, 0.5 * L, 0], "velocity": [0.5, 0, 0], "angular_velocity": [0, 0, -1],
            "markers": [marker("pivot", (0, -0.5 * L, 0), (0, 0, 1), (0, 1, 0)), marker("tip", (0, 0.5 * L, 0))],
        })
    for i in range(1, n + 1):
        left = marker("left", (-0.5 * L, 0, 0), (0, 1, 0) if nonredundant else None)
        bodies.append({
            "name": "coupler%d" % i, "mass": mass, "inertia": [ia, it, it],
            "position": [i - 0.5, L, 0], "velocity": [1, 0, 0],
            "markers": [left, marker("right", (0.5 * L, 0, 0))],
        })
    for i in range(n + 1):
        joints.append(joint("crank%d_pivot" % i, "revolute", "ground", "A%d" % i, "crank%d" % i, "pivot"))
    for i in range(1, n + 1):
        joints.append(joint("coupler%d_left" % i, "universal" if nonredundant else "revolute",
                            "crank%d" % (i - 1), "tip", "coupler%d" % i, "left"))
        joints.append(joint("coupler%d_right" % i, "spherical" if nonredundant else "revolute",
                            "crank%d" % i, "tip", "coupler%d" % i, "right"))
    return {
        "schema_version": 1, "name": name, "description": desc, "gravity": [0, -g, 0],
        "ground": {"markers": ground}, "bodies": bodies, "joints": joints,
        "sensors": [
            {"name": "crank0", "type": "joint", "joint": "crank0_pivot",
             "quantities": ["coordinate", "velocity", "reaction_force"]},
            {"name": "B0", "type": "marker", "body": "crank0", "marker": "tip", "quantities": ["position", "velocity"]},
            {"name": "energy", "type": "energy", "quantities": ["kinetic", "potential", "total"]},
        ],
        # IDA passes the ten aligned positions at rtol 1e-6 (9e-5 rad off the closed form for N = 2)
        # but not yet at 1e-8 (docs/theory/singular-configurations.md)
        "simulation": {"t_end": 10, "step": 1e-3, "output_interval": 1e-2, "integrator": "ida",
                       "rtol": 1e-6, "atol": 1e-8},
    }


# --- IFToMM A04: Bricard's mechanism ----------------------------------------------------------------
BRICARD_POINTS = [(0, 0, 0), (1, 0, 0), (1, -1, 0), (1, -1, 1), (0, -1, 1), (0, 0, 1)]
BRICARD_AXES = [(0, 1, 0), (0, 0, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 0)]


def bricard(cylindrical=False):
    """Five bars P_k -> P_k+1 (k = 0..4) and the ground bar P5 -> P0, six revolutes at P0..P5."""
    mass, a = 1.0, 0.1
    it = mass * (1 + a * a) / 12      # 1 m x 0.1 m x 0.1 m bar, across
    ia = mass * (a * a + a * a) / 12  # about its own axis
    name = "bricard_cylindrical" if cylindrical else "bricard"
    joints_text = (
        "6 revolute joints: 30 rows for 30 coordinates, rank 29 (one dependent row that belongs to no "
        "particular joint), so 1 degree of freedom where the counting formula gives 0.")
    if cylindrical:
        joints_text = (
            "Non-redundant substitute (test data): the revolute at P5 is a cylindrical joint on the same axis "
            "(4 rows), 29 rows of rank 29, 1 degree of freedom; its slide stays 0 along the motion, which is "
            "then the same as with six revolutes.")
    desc = (
        "IFToMM multibody benchmark A04, Bricard's mechanism: an overconstrained single loop of five bars "
        "(1 m, 1 kg, square section 0.1 m: inertia m (L^2 + a^2)/12 = %s kg m^2 across, m a^2/6 = %s kg m^2 "
        "along) and the ground as the sixth, along the edges of the unit cube: P0 = (0,0,0), P1 = (1,0,0), "
        "P2 = (1,-1,0), P3 = (1,-1,1), P4 = (0,-1,1), P5 = (0,0,1), the ground bar from P5 to P0. The joint "
        "axes alternate y, z, x, y, z, x at P0..P5, each perpendicular to both bars it joins. %s Started at "
        "rest in this configuration under gravity -9.81 m/s^2 along y: along the loop's one motion the joint "
        "rates are w (1, -1, 1, -1, 1, -1) and gravity does work g w on it, so it falls. Conservative: the "
        "total energy stays at its initial value, the potential energy -3 m g = -29.43 J (centres of mass "
        "at y = 0, -0.5, -1, -1, -0.5 m; zero at y = 0). Sensors: hinge0 (joint at P0), the tip P3 of bar 3, "
        "hinge5 (joint at P5; cylindrical variant: also its slide) and the energies." %
        (num(it), num(ia), joints_text))
    ground = [marker("P0", BRICARD_POINTS[0], BRICARD_AXES[0]), marker("P5", BRICARD_POINTS[5], BRICARD_AXES[5])]
    bodies = []
    for k in range(5):
        p, q = BRICARD_POINTS[k], BRICARD_POINTS[k + 1]
        c = [0.5 * (p[i] + q[i]) for i in range(3)]
        along = [abs(q[i] - p[i]) for i in range(3)]
        inertia = [ia if along[i] > 0.5 else it for i in range(3)]
        bodies.append({
            "name": "bar%d" % (k + 1), "mass": mass, "inertia": inertia, "position": clean(c),
            "markers": [marker("P%d" % k, clean([p[i] - c[i] for i in range(3)]), BRICARD_AXES[k]),
                        marker("P%d" % (k + 1), clean([q[i] - c[i] for i in range(3)]), BRICARD_AXES[k + 1])],
        })
    chain = ["ground", "bar1", "bar2", "bar3", "bar4", "bar5", "ground"]
    joints = []
    for k in range(6):
        kind = "cylindrical" if (cylindrical and k == 5) else "revolute"
        joints.append(joint("hinge%d" % k, kind, chain[k], "P%d" % k, chain[k + 1], "P%d" % k))
    joints[5] = joint("hinge5", joints[5]["type"], "ground", "P5", "bar5", "P5")
    return {
        "schema_version": 1, "name": name, "description": desc, "gravity": [0, -9.81, 0],
        "ground": {"markers": ground}, "bodies": bodies, "joints": joints,
        "sensors": [
            {"name": "hinge0", "type": "joint", "joint": "hinge0",
             "quantities": ["coordinate", "velocity", "reaction_force"]},
            {"name": "P3", "type": "marker", "body": "bar3", "marker": "P3", "quantities": ["position", "velocity"]},
            {"name": "hinge5", "type": "joint", "joint": "hinge5", "quantities": ["coordinate"]},
            {"name": "energy", "type": "energy", "quantities": ["kinetic", "potential", "total"]},
        ],
        "simulation": {"t_end": 10, "step": 1e-3, "output_interval": 1e-2, "integrator": "ida",
                       "rtol": 1e-8, "atol": 1e-10},
    }


# --- Andrews' squeezing mechanism -------------------------------------------------------------------
# Hairer & Wanner, Solving ODEs II, Sec. VII.7; IVP test set (Bari), problem "andrews".
AND = dict(
    m=[0.04325, 0.00365, 0.02373, 0.00706, 0.07050, 0.00706, 0.05498],
    I=[2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5],
    xa=-0.06934, ya=-0.00227, xb=-0.03635, yb=0.03273, xc=0.014, yc=0.072,
    d=28e-3, da=115e-4, e=2e-2, ea=1421e-5, rr=7e-3, ra=92e-5,
    ss=35e-3, sa=1874e-5, sb=1043e-5, sc=18e-3, sd=2e-2, ta=2308e-5, tb=916e-5,
    u=4e-2, ua=1228e-5, ub=449e-5, zf=2e-2, zt=4e-2, fa=1421e-5, mom=0.033, c0=4530.0, l0=0.07785,
    q0=[-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
        0.222668390165885884674473185609, 0.487364979543842550225598953530,
        -0.222668390165885884674473185609, 1.23054744454982119249735015568],
)


def andrews(nonredundant=False):
    """Seven bodies; body k's frame is at a joint point, turned by its absolute angle psi_k:
    psi = (beta, beta+Theta, gamma, Phi+delta, delta, Omega+epsilon, epsilon). Markers are given
    relative to the centre of mass in body axes."""
    p = AND
    beta, theta, gamma, phi, delta, omega, eps = p["q0"]
    psi = [beta, beta + theta, gamma, phi + delta, delta, omega + eps, eps]
    # body-fixed points relative to the body frame's origin (the joint named first), body axes
    frame_origin = {}
    local = {  # body: {point: (x, y) from the frame origin}, "cm" is the centre of mass
        1: {"cm": (p["ra"], 0), "O": (0, 0), "F": (p["rr"], 0)},
        2: {"cm": (-p["da"], 0), "F": (0, 0), "E": (-p["d"], 0)},
        3: {"cm": (p["sb"], -p["sa"]), "B": (0, 0), "E": (0, -p["ss"]), "D": (p["sd"], -p["sc"])},
        4: {"cm": (0, -(p["e"] - p["ea"])), "G": (0, 0), "E": (0, -p["e"])},
        5: {"cm": (p["ta"], p["tb"]), "A": (0, 0), "G": (p["zt"], 0)},
        6: {"cm": (p["zf"] - p["fa"], 0), "H": (0, 0), "E": (p["zf"], 0)},
        7: {"cm": (p["ub"], -p["ua"]), "A": (0, 0), "H": (0, -p["u"])},
    }

    def glob(k, xy):
        o = frame_origin[k]
        c, s = math.cos(psi[k - 1]), math.sin(psi[k - 1])
        return (o[0] + c * xy[0] - s * xy[1], o[1] + s * xy[0] + c * xy[1])

    O, A, B, C = (0.0, 0.0), (p["xa"], p["ya"]), (p["xb"], p["yb"]), (p["xc"], p["yc"])
    frame_origin[1] = O
    frame_origin[2] = glob(1, local[1]["F"])
    frame_origin[3] = B
    frame_origin[5] = A
    frame_origin[4] = glob(5, local[5]["G"])
    frame_origin[7] = A
    frame_origin[6] = glob(7, local[7]["H"])
    # the four bodies meet at E; the published angles close the loops to round-off
    e_pts = [glob(k, local[k]["E"]) for k in (2, 3, 4, 6)]
    assert max(abs(a[i] - e_pts[0][i]) for a in e_pts for i in range(2)) < 1e-15, e_pts

    # universal joints of the non-redundant variant: the second body's pin is its in-plane normal
    # to the link (so the pins stay perpendicular to the first body's z pin)
    uni_pin = {("F", 2): (0, 1, 0), ("G", 4): (1, 0, 0), ("H", 6): (0, 1, 0)}
    bodies = []
    for k in range(1, 8):
        cm = local[k]["cm"]
        markers = []
        for pt, xy in local[k].items():
            if pt == "cm":
                continue
            z = uni_pin.get((pt, k)) if nonredundant else None
            markers.append(marker(pt, clean([xy[0] - cm[0], xy[1] - cm[1], 0.0]), z))
        pos = glob(k, cm)
        half = 0.5 * psi[k - 1]
        bodies.append({
            "name": "body%d" % k, "mass": p["m"][k - 1], "inertia": [p["I"][k - 1]] * 3,
            "position": [pos[0], pos[1], 0.0],  # full precision: the published angles to round-off
            "orientation": [math.cos(half), 0, 0, math.sin(half)],
            "markers": markers,
        })
    ground = [marker("O", (0, 0, 0)), marker("A", (A[0], A[1], 0)), marker("B", (B[0], B[1], 0)),
              marker("C", (C[0], C[1], 0))]
    R, U, S = "revolute", "universal" if nonredundant else "revolute", "spherical" if nonredundant else "revolute"
    joints = [
        joint("O", R, "ground", "O", "body1", "O"),
        joint("F", U, "body1", "F", "body2", "F"),
        joint("B", R, "ground", "B", "body3", "B"),
        joint("E23", S, "body2", "E", "body3", "E"),
        joint("A5", R, "ground", "A", "body5", "A"),
        joint("G", U, "body5", "G", "body4", "G"),
        joint("E24", S, "body2", "E", "body4", "E"),
        joint("A7", R, "ground", "A", "body7", "A"),
        joint("H", U, "body7", "H", "body6", "H"),
        joint("E26", S, "body2", "E", "body6", "E"),
    ]
    names = [("beta", "O"), ("Theta", "F"), ("gamma", "B"), ("Phi", "G"), ("delta", "A5"), ("Omega", "H"),
             ("epsilon", "A7")]
    sensors = [{"name": s, "type": "joint", "joint": j, "quantities": ["coordinate", "velocity"]}
               for s, j in names if not (nonredundant and j in ("F", "G", "H"))]
    sensors.append({"name": "energy", "type": "energy", "quantities": ["kinetic", "potential", "total"]})
    joints_text = (
        "Ten revolute joints about global z (O, F, B, A5, A7, G, H and three at E where body 2 meets bodies "
        "3, 4 and 6): 50 rows for 42 coordinates; the three planar loops repeat 3 rows each in 3-D (9 "
        "dependent rows), 1 degree of freedom.")
    if nonredundant:
        joints_text = (
            "Non-redundant substitute (test data): F, G and H are universal joints (pins: global z on the "
            "first body, the link's in-plane normal on the second) and the three joints at E spherical: "
            "4 x 5 + 3 x 4 + 3 x 3 = 41 rows for 42 coordinates, no dependent row; the motion is the same.")
    desc = (
        "Andrews' squeezing mechanism, the seven-body mechanism of Hairer & Wanner (Solving ODEs II, Sec. "
        "VII.7) and of the IVP test set of Mazzia & Magherini (problem 'andrews'): seven planar bodies with "
        "the published masses, inertias and geometry, fixed points O = (0,0), A = (xa,ya) = (-0.06934, "
        "-0.00227), B = (xb,yb) = (-0.03635, 0.03273), C = (xc,yc) = (0.014, 0.072) m. %s Body k's axes turn "
        "with its absolute angle, so each joint coordinate is one of the test set's angles: O = beta, "
        "F = Theta, B = gamma, G = Phi, A5 = delta, H = Omega, A7 = epsilon. Loads: a constant torque of "
        "0.033 N m on body 1, a spring c0 = 4530 N/m, l0 = 0.07785 m from C to point D of body 3; no "
        "gravity. Released from rest at the published consistent angles; t_end = 0.03 s (IDA; for gen-alpha "
        "take a step of 1e-5 s). Reference at "
        "0.03 s (test set): beta = 15.81077119629904, Theta = -15.75637105984298, gamma = 0.04082224013073101, "
        "Phi = -0.5347301163226948, delta = 0.5244099658805304, Omega = 0.5347301163226948, epsilon = "
        "1.048080741042263 rad (an independent solve, tests/reference/andrews_reference.py, agrees to "
        "1.4e-9 rad). Out-of-plane inertias are set equal to the in-plane one; they do not enter the planar "
        "motion. The sign of the offset of the centre of mass across the link of the ground-pivoted bodies "
        "3, 5 and 7 does not enter either (no gravity)." % joints_text)
    return {
        "schema_version": 1,
        "name": "andrews_squeezer" + ("_nonredundant" if nonredundant else ""),
        "description": desc, "gravity": [0, 0, 0],
        "ground": {"markers": ground}, "bodies": bodies, "joints": joints,
        "forces": [
            {"name": "drive", "type": "point_torque", "body": "body1", "marker": "O", "vector": [0, 0, p["mom"]]},
            {"name": "spring", "type": "spring_damper", "body1": "ground", "marker1": "C", "body2": "body3",
             "marker2": "D", "stiffness": p["c0"], "free_length": p["l0"]},
        ],
        "sensors": sensors,
        # step: IDA's largest step (1e-5 makes today's IDA fail at t = 0); for gen-alpha
        # use --step 1e-5 (the error at 0.03 s is 1.2e-4 rad there, 1.6e-2 rad at 1e-4)
        "simulation": {"t_end": 0.03, "step": 1e-4, "output_interval": 1e-4, "integrator": "ida",
                       "rtol": 1e-8, "atol": 1e-10},
    }


def outputs():
    yield os.path.join(EXAMPLES, "n_four_bar_2.json"), n_four_bar(2)
    yield os.path.join(EXAMPLES, "n_four_bar_10.json"), n_four_bar(10)
    yield os.path.join(EXAMPLES, "bricard.json"), bricard()
    yield os.path.join(EXAMPLES, "andrews_squeezer.json"), andrews()
    yield os.path.join(TESTDATA, "n_four_bar_2_nonredundant.json"), n_four_bar(2, True)
    yield os.path.join(TESTDATA, "n_four_bar_10_nonredundant.json"), n_four_bar(10, True)
    yield os.path.join(TESTDATA, "bricard_cylindrical.json"), bricard(True)
    yield os.path.join(TESTDATA, "andrews_squeezer_nonredundant.json"), andrews(True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = ap.parse_args()
    stale = 0
    for path, model in outputs():
        text = dump(model) + "\n"
        json.loads(text)  # well-formed
        rel = os.path.relpath(path, ROOT)
        if args.check:
            try:
                with open(path, encoding="utf-8") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print("stale: " + rel)
                stale += 1
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote " + rel)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Build the geometric-stiffening validation models: reduced bodies and JSON models.

    python3 tests/validation/stiffening/make_models.py [--cli build/app/flexim-cli] [--json-only]

Steps (standard-library Python; needs a built flexim-cli for the reductions):

1. reduce the two decks beside this script (C3D20R meshes of tests/reference/nlgeom, material,
   solid section) with `flexim-cli reduce`:
     spin_up_beam_ff.frb   free-free, 6 rigid + 12 elastic modes, interface ROOTFACE (rigid)
     soft_pendulum_ff.frb  free-free, 6 rigid + 12 elastic modes, interface ROOTFACE (rigid)
     soft_pendulum_cb.frb  Craig-Bampton, interface ROOTFACE (rigid), 6 constraint + 8
                           fixed-interface modes
     spin_up_beam_cb.frb   Craig-Bampton, interface ROOTFACE (rigid), 6 constraint + 8
                           fixed-interface modes
2. write the models spin_up_beam.json, spin_up_beam_cb.json, soft_pendulum.json,
   soft_pendulum_mean_axis.json and soft_pendulum_cb.json.

The hub angle of the spin-up beam is a "table" time function (natural cubic spline) of
theta(t) = (Os/Ts)(t^2/2 + (Ts/(2 pi))^2 (cos(2 pi t/Ts) - 1)) for t < Ts, Os (t - Ts/2) after,
Ts = 15 s, Os = 6 rad/s, with knots every KNOT_STEP s from -0.2 s to T_END_SPIN (see theta_table).
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

TS, OMEGA_S = 15.0, 6.0
T_END_SPIN = 16.0
KNOT_STEP = 0.02
T_FIRST_KNOT = -0.2   # the table starts before t = 0: see theta_table()
TIP_NODE = 387    # NSET TIPC of mesh_spin_20x2x1.inp and mesh_pend_20x2x1.inp: (L, 0, 0)
ROOT_NODE = 7     # NSET ROOTC: (0, 0, 0)

CB_ARGS = ["--modes", "8", "--interface", "ROOTFACE:rigid", "--method", "craig-bampton"]
REDUCTIONS = [
    # (output, deck, extra arguments, required)
    ("spin_up_beam_ff.frb", "spin_up_beam_20x2x1.inp",
     ["--modes", "12", "--interface", "ROOTFACE:rigid", "--method", "free-free"], True),
    ("spin_up_beam_cb.frb", "spin_up_beam_20x2x1.inp", CB_ARGS, True),
    ("soft_pendulum_ff.frb", "soft_pendulum_20x2x1.inp",
     ["--modes", "12", "--interface", "ROOTFACE:rigid", "--method", "free-free"], True),
    ("soft_pendulum_cb.frb", "soft_pendulum_20x2x1.inp",
     ["--modes", "8", "--interface", "ROOTFACE:rigid", "--method", "craig-bampton"], True),
]


def theta(t):
    """Prescribed hub angle of the spin-up manoeuvre [rad]."""
    if t < TS:
        return (OMEGA_S / TS) * (t * t / 2.0
                                 + (TS / (2.0 * math.pi)) ** 2 * (math.cos(2.0 * math.pi * t / TS) - 1.0))
    return OMEGA_S * (t - TS / 2.0)


def theta_table():
    """theta(t) as a "table" time function, knots every KNOT_STEP from T_FIRST_KNOT to T_END_SPIN.

    The knots start at T_FIRST_KNOT = -0.2 s, not at 0: with the flexim-cli of 2026-11-28 a table
    whose first knot is t = 0 makes IDA fail at t = 0 ("error test failed repeatedly ... modal
    rate 1"), while a table that starts before 0 runs. theta(t) for t < Ts is an even function
    of t (t^2/2 + c (cos(2 pi t/Ts) - 1)), so the formula itself continues it to t < 0, and the
    spline through these knots is as smooth at t = 0 as everywhere else; the natural end
    condition at -0.2 s (theta'' = 1.4e-3 rad/s^2 there, not 0) is forgotten within a few knots.
    """
    n = int(round((T_END_SPIN - T_FIRST_KNOT) / KNOT_STEP))
    times = [round(T_FIRST_KNOT + i * KNOT_STEP, 10) for i in range(n + 1)]
    values = [float("%.12g" % theta(t)) for t in times]
    return {"type": "table", "times": times, "values": values}


def reduce_all(cli):
    ok = True
    for out, deck, args, required in REDUCTIONS:
        cmd = [cli, "reduce", deck] + args + ["--out", out]
        print("+", " ".join(cmd), flush=True)
        r = subprocess.run(cmd, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        for l in [l for l in r.stdout.splitlines() if "error" in l or l.startswith("written")][-3:]:
            print("   ", l)
        if r.returncode != 0:
            if os.path.exists(os.path.join(HERE, out)):
                os.remove(os.path.join(HERE, out))
            if required:
                ok = False
            else:
                print("    (optional reduction failed; going on without %s)" % out)
    return ok


def flexible_body(name, frb, extra=None):
    fb = {
        "name": name,
        "file": frb,
        "reference": "interface",
        "reference_interface": "ROOTFACE",
        "position": [0, 0, 0],
    }
    if extra:
        fb.update(extra)
    return fb


def hinged(frb, body, marker, gravity, joint=None):
    """The parts both models share: the body with its frame on ROOTFACE, a virtual body there,
    a revolute joint about global z through the origin, the tip and joint-angle sensors."""
    joint = joint or marker
    return {
        "gravity": gravity,
        "ground": {"markers": [{"name": marker, "position": [0, 0, 0]}]},
        "flexible_bodies": [flexible_body(body, frb)],
        "virtual_bodies": [
            {"name": "root", "flexible_body": body, "interface": "ROOTFACE",
             "markers": [{"name": marker, "position": [0, 0, 0]}]},
        ],
        "joints": [
            {"name": joint, "type": "revolute", "body1": "ground", "marker1": marker,
             "body2": "root", "marker2": marker},
        ],
        "sensors": [
            {"name": "tip", "type": "node", "body": body, "node": TIP_NODE, "frame": "global",
             "quantities": ["position"]},
            {"name": joint, "type": "joint", "joint": joint, "quantities": ["coordinate"]},
        ],
    }


def spin_model(frb, name, description_extra):
    return {
        "schema_version": 1,
        "name": name,
        "description": (
            "Spin-up beam (Kane, Ryan & Banerjee 1987) for the geometric-stiffening validation "
            "(tests/validation/stiffening/README.md): 10 m beam, square a = 0.0774597 m, "
            "E = 4.6667e9 Pa, rho = 200 kg/m^3, C3D20R mesh tests/reference/nlgeom/mesh_spin_20x2x1.inp, "
            + description_extra +
            " The floating frame is attached to the root face (interface ROOTFACE); a virtual body "
            "at that interface turns about global z through the origin on a revolute joint driven by "
            "theta(t) = (Os/Ts)(t^2/2 + (Ts/2pi)^2 (cos(2 pi t/Ts) - 1)), Ts = 15 s, Os = 6 rad/s "
            "(then Os (t - Ts/2)), a natural cubic spline table with knots every %g s from -0.2 s (theta is "
            "even in t, so the spline has theta's own slope and curvature at t = 0). No gravity. "
            "Sensors: %s (global position), the hub angle. "
            "Reference: tests/reference/nlgeom/spin_up_beam.csv (CalculiX NLGEOM)."
            % (KNOT_STEP, "the tip-face centre node %d" % TIP_NODE)),
        **hinged(frb, "beam", "hub", [0, 0, 0]),
        "drivers": [
            {"name": "spin_up", "joint": "hub", "coordinate": "rotation", "function": theta_table()},
        ],
        "simulation": {"t_end": T_END_SPIN, "step": 0.01, "output_interval": 0.02,
                       "integrator": "ida", "rtol": 1e-6, "atol": 1e-8},
    }


def pendulum_model(frb, name, description_extra):
    return {
        "schema_version": 1,
        "name": name,
        "description": (
            "Soft pendulum for the geometric-stiffening validation (tests/validation/stiffening/README.md): "
            "1 m bar, 10 mm (y) x 20 mm (z), E = 5e9 Pa, rho = 7850 kg/m^3, C3D20R mesh "
            "tests/reference/nlgeom/mesh_pend_20x2x1.inp, " + description_extra +
            " The floating frame is attached to the x = 0 end face (interface ROOTFACE, rigid); a virtual "
            "body at that interface is pinned to the ground by a revolute joint about global z through "
            "the end-face centre (the origin). Released at rest, straight and horizontal, gravity -y. "
            "Sensors: the tip-face centre node %d (global position), the hinge angle. "
            "Reference: tests/reference/nlgeom/soft_pendulum.csv (CalculiX NLGEOM)." % TIP_NODE),
        **hinged(frb, "bar", "pin", [0, -9.81, 0], joint="hinge"),
        "simulation": {"t_end": 2.0, "step": 0.002, "output_interval": 0.01,
                       "integrator": "ida", "rtol": 1e-7, "atol": 1e-9},
    }


def write_json(path, model):
    # arrays of numbers on one line, like Flexim's own files
    text = json.dumps(model, indent=2)
    text = re.sub(r"\[\s+([-0-9.eE+,\s]+?)\s+\]",
                  lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]", text)
    with open(path, "w") as f:
        f.write(text + "\n")
    print("written:", os.path.relpath(path, REPO))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=os.path.join(REPO, "build", "app", "flexim-cli"),
                    help="flexim-cli to reduce with (default: build/app/flexim-cli)")
    ap.add_argument("--json-only", action="store_true", help="only write the JSON models")
    a = ap.parse_args()
    if not a.json_only:
        if not reduce_all(os.path.abspath(a.cli)):
            print("error: a required reduction failed", file=sys.stderr)
            return 1
    ff = "free-free reduction spin_up_beam_ff.frb (6 rigid + 12 elastic modes)."
    write_json(os.path.join(HERE, "spin_up_beam.json"),
               spin_model("spin_up_beam_ff.frb", "spin_up_beam", ff))
    write_json(os.path.join(HERE, "spin_up_beam_cb.json"),
               spin_model("spin_up_beam_cb.frb", "spin_up_beam_cb",
                          "Craig-Bampton reduction spin_up_beam_cb.frb (ROOTFACE rigid, 6 constraint + 8 "
                          "fixed-interface modes)."))
    write_json(os.path.join(HERE, "soft_pendulum.json"),
               pendulum_model("soft_pendulum_ff.frb", "soft_pendulum",
                              "free-free reduction soft_pendulum_ff.frb (6 rigid + 12 elastic modes)."))
    # the same free-free body with its frame on the mean axes (no frame interface)
    mean_axis = pendulum_model("soft_pendulum_ff.frb", "soft_pendulum_mean_axis",
                               "free-free reduction soft_pendulum_ff.frb (6 rigid + 12 elastic modes).")
    mean_axis["description"] = mean_axis["description"].replace(
        "The floating frame is attached to the x = 0 end face (interface ROOTFACE, rigid); a virtual body at that "
        "interface", "The floating frame is the mean axes (Buckens conditions: the modes carry no mean translation "
        "or rotation); a virtual body at the interface ROOTFACE")
    body = mean_axis["flexible_bodies"][0]
    body["reference"] = "mean_axis"
    del body["reference_interface"]
    write_json(os.path.join(HERE, "soft_pendulum_mean_axis.json"), mean_axis)
    write_json(os.path.join(HERE, "soft_pendulum_cb.json"),
               pendulum_model("soft_pendulum_cb.frb", "soft_pendulum_cb",
                              "Craig-Bampton reduction soft_pendulum_cb.frb (ROOTFACE rigid, 6 constraint + 8 "
                              "fixed-interface modes)."))
    return 0


if __name__ == "__main__":
    sys.exit(main())

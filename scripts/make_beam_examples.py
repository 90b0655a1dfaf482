#!/usr/bin/env python3
"""Writes the beam examples of resources/examples/ with `flexim-cli beam` (the member meshed into
elements, its nodes placed unstressed) and adds their loads, sensors and solver settings.

    python3 scripts/make_beam_examples.py [--cli build/app/flexim-cli]
"""
import argparse
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "resources", "examples")


def member(cli, model, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(model, f)
        path = f.name
    subprocess.run([cli, "beam", path, *args], check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        out = json.load(f)
    os.unlink(path)
    return out


def tip_sensor(body, quantities=("position",)):
    return {"name": "tip", "type": "marker", "body": body, "marker": "m", "quantities": list(quantities)}


def write(name, model):
    path = os.path.join(EXAMPLES, name)
    with open(path, "w") as f:
        json.dump(model, f, indent=2)
        f.write("\n")
    print("wrote", os.path.relpath(path, ROOT))


def cantilever(cli):
    L, E, a = 2.0, 207e9, 0.1
    I = a**4 / 12
    F = 3 * E * I / L**2
    m = {
        "schema_version": 1,
        "name": "beam_cantilever_tip_force",
        "description": (
            "A cantilever of length 2 m, square 0.1 m section, E = 207 GPa (steel, 7850 kg/m^3), modelled by 4 "
            "planar beam elements without shear, loaded at its tip by the transverse force 3EI/L^2 = %.6g N, "
            "for which linear theory would give a deflection equal to the length. flexim-cli static finds the "
            "large deflection; a run applies the load suddenly at t = 0 and the beam rings about that deflection, "
            "damped by the material damping d = 1e-4 s. Meijaard's planar example (generalized strains "
            "defined implicitly, SPACAR)." % F
        ),
        "simulation": {"t_end": 0.2, "step": 2e-4, "output_interval": 1e-3, "integrator": "gen-alpha"},
    }
    element = {"formulation": "planar", "youngs_modulus": E, "area": a * a, "iy": I, "iz": I, "density": 7850,
               "damping": 1e-4}
    m = member(cli, m, "--name", "beam", "--length", str(L), "--elements", "4", "--element", json.dumps(element),
               "--clamp", "--planar")
    tip = m["beam_nodes"][-1]["name"]
    m["forces"] = [{"name": "tip_force", "type": "point_force", "body": tip, "marker": "m", "vector": [0, F, 0]}]
    m["sensors"] = [tip_sensor(tip), {"name": "energy", "type": "energy", "quantities": ["kinetic", "potential", "total"]}]
    write("beam_cantilever_tip_force.json", m)


def bend(cli, dynamic):
    R = 100.0
    m = {"schema_version": 1}
    element = {"formulation": "spatial", "youngs_modulus": 1e7, "shear_modulus": 5e6, "area": 1, "iy": 1 / 12,
               "iz": 1 / 12, "torsion_constant": 1 / 6, "shear": True, "shear_factor": 1, "density": 1}
    if dynamic:
        element["damping"] = 1.0
        m["name"] = "beam_curved_cantilever_dynamic"
        m["description"] = (
            "The 45-degree bend of beam_bend_45deg.json (radius 100 m, unit square section, E = 1e7, G = 5e6, "
            "density 1, 8 spatial elements) with stiffness-proportional damping d = 1 s, loaded suddenly at t = 0 "
            "by 300 out of its plane: it swings about and settles on its static solution under that load (its "
            "first period is about 13 s). Compare with flexim-cli static of the same model.")
        m["simulation"] = {"t_end": 60, "step": 0.05, "output_interval": 0.25, "integrator": "gen-alpha"}
        load = 300.0
    else:
        m["name"] = "beam_bend_45deg"
        m["description"] = (
            "The Bathe-Bolourchi 45-degree bend: a cantilever curved over 45 degrees with radius 100 m in the x-y "
            "plane, unit square section, EA = 1e7 N, GAk = 5e6 N, EI = GJ = 1e7/12 N m^2, 8 spatial beam elements, "
            "loaded at its free end by 600 N along z, out of its plane. flexim-cli static finds the tip at about "
            "(47.2, 15.8, 53.4) (Simo & Vu-Quoc 1986: 53.37 out of the plane).")
        load = 600.0
    m = member(cli, m, "--name", "bend", "--arc", "%g,45" % R, "--elements", "8", "--element", json.dumps(element),
               "--clamp")
    tip = m["beam_nodes"][-1]["name"]
    force = {"name": "tip_load", "type": "point_force", "body": tip, "marker": "m", "vector": [0, 0, load]}
    m["forces"] = [force]
    m["sensors"] = [tip_sensor(tip)]
    if dynamic:
        m["sensors"].append({"name": "energy", "type": "energy", "quantities": ["kinetic", "potential", "total"]})
    write("beam_curved_cantilever_dynamic.json" if dynamic else "beam_bend_45deg.json", m)


def pendulum(cli):
    nu = 0.3
    k = 10 * (1 + nu) / (12 + 11 * nu)
    m = {
        "schema_version": 1,
        "name": "beam_flexible_pendulum",
        "description": (
            "A very flexible pendulum (Meijaard's example after Schiehlen et al.): a beam 1.2 m long, E = 0.7 MPa, "
            "nu = 0.3, A = 0.0018 m^2, I = 12.15e-9 m^4, density 5540 kg/m^3, shear factor 10(1+nu)/(12+11nu), "
            "hinged at one end and released from the horizontal under gravity. 40 planar elements give the "
            "motion's character (the paper uses 400 for the details); no damping, so its energy stays constant."),
        "gravity": [0, -9.81, 0],
        "simulation": {"t_end": 2, "step": 5e-4, "output_interval": 0.01, "integrator": "gen-alpha", "rho_inf": 0.9},
    }
    element = {"formulation": "planar", "youngs_modulus": 0.7e6, "poisson_ratio": nu, "area": 0.0018,
               "iy": 12.15e-9, "iz": 12.15e-9, "density": 5540, "shear": True, "shear_factor": k}
    m = member(cli, m, "--name", "beam", "--length", "1.2", "--elements", "40", "--element", json.dumps(element),
               "--planar")
    m.setdefault("ground", {}).setdefault("markers", []).append({"name": "hinge", "position": [0, 0, 0]})
    m["joints"] = [j for j in m["joints"] if j["body2"] != "beam_0"]
    m["joints"].insert(0, {"name": "hinge", "type": "revolute", "body1": "ground", "marker1": "hinge",
                           "body2": "beam_0", "marker2": "m"})
    tip = m["beam_nodes"][-1]["name"]
    m["sensors"] = [tip_sensor(tip), {"name": "energy", "type": "energy", "quantities": ["kinetic", "potential", "total"]}]
    write("beam_flexible_pendulum.json", m)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "flexim-cli"))
    args = parser.parse_args()
    cantilever(args.cli)
    bend(args.cli, False)
    bend(args.cli, True)
    pendulum(args.cli)


if __name__ == "__main__":
    main()

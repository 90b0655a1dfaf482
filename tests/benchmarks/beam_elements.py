#!/usr/bin/env python3
"""Beam elements: the time per element per step of the dynamics (a clamped cantilever of 100 and
1000 spatial or planar elements, released under gravity, generalized-alpha at a fixed step),
and the static solve of the 45-degree bend (resources/examples/beam_bend_45deg.json).

    tests/benchmarks/beam_elements.py [--cli build/app/flexim-cli] [--runs 3] [--steps 20]

Members are meshed by `flexim-cli beam`; times are the runs' own wall times (flexim-cli's
summary), the median of --runs runs. Standard-library Python.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "resources", "examples")


def call(args):
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if out.returncode not in (0, 3):
        raise SystemExit("failed: %s\n%s" % (" ".join(args), out.stdout[-2000:]))
    return out.stdout


def cantilever(cli, folder, formulation, elements, steps):
    """A steel cantilever 2 m long, 0.1 m square, damped (d = 1e-4 s), released under gravity."""
    path = os.path.join(folder, "cantilever_%s_%d.json" % (formulation, elements))
    h = 1e-4
    model = {"schema_version": 1, "name": os.path.basename(path), "gravity": [0, -9.81, 0],
             "simulation": {"t_end": steps * h, "step": h, "output_interval": steps * h, "integrator": "gen-alpha"}}
    with open(path, "w") as f:
        json.dump(model, f)
    element = {"formulation": formulation, "youngs_modulus": 207e9, "area": 0.01, "iy": 8.333e-6, "iz": 8.333e-6,
               "damping": 1e-4}
    args = [cli, "beam", path, "--name", "b", "--length", "2", "--elements", str(elements), "--element",
            json.dumps(element), "--clamp"]
    if formulation == "planar":
        args.append("--planar")
    call(args)
    return path


def timed(args):
    text = call(args)
    wall = float(re.search(r"wall time:? ([0-9.e+-]+) s", text).group(1))
    steps = re.search(r"steps: (\d+)", text)
    return wall, int(steps.group(1)) if steps else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "flexim-cli"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print("| formulation | elements | steps | wall [s] | µs per element per step |")
        print("|---|---:|---:|---:|---:|")
        for formulation in ("spatial", "planar"):
            for n in (100, 1000):
                steps = args.steps if n <= 100 else max(2, args.steps // 4)
                model = cantilever(args.cli, folder, formulation, n, steps)
                out = os.path.join(folder, "out.csv")
                walls = []
                for _ in range(args.runs):
                    wall, done = timed([args.cli, "run", model, "--out", out])
                    walls.append(wall)
                wall = statistics.median(walls)
                print("| %s | %d | %d | %.3f | %.0f |" % (formulation, n, done, wall, 1e6 * wall / (n * done)))
        bend = os.path.join(EXAMPLES, "beam_bend_45deg.json")
        walls = [timed([args.cli, "static", bend, "--out", os.path.join(folder, "s.csv")])[0] for _ in range(args.runs)]
        print("\nstatic equilibrium of beam_bend_45deg.json (8 spatial elements, 10 load levels): %.3f s" %
              statistics.median(walls))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Convergence of beam elements with the number of elements, for docs/validation.md: the tip of
the planar cantilever under the tip force 3EI/L^2 (without and with shear) and the out-of-plane
tip displacement of the 45-degree bend at 600 N (spatial elements, linear and constant torsion),
each against the same model with 256 elements. Meshes with `flexim-cli beam`, solves with
`flexim-cli static`, writes beam-convergence.png and prints the table.

    scripts/plot_beam_convergence.py [--cli build/app/flexim-cli] [--out docs/images]

Needs matplotlib (Debian python3-matplotlib).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTS = (1, 2, 4, 8, 16, 32, 64)
REFERENCE = 256


def tip(cli, folder, case, n):
    path = os.path.join(folder, "%s_%d.json" % (case["name"], n))
    with open(path, "w") as f:
        json.dump({"schema_version": 1, "name": case["name"]}, f)
    args = [cli, "beam", path, "--name", "b", "--elements", str(n), "--element", json.dumps(case["element"]),
            "--clamp"] + case["geometry"]
    if case["element"]["formulation"] == "planar":
        args.append("--planar")
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        model = json.load(f)
    model["forces"] = [{"name": "load", "type": "point_force", "body": "b_%d" % n, "marker": "m",
                        "vector": case["load"]}]
    model["sensors"] = [{"name": "tip", "type": "marker", "body": "b_%d" % n, "marker": "m",
                         "quantities": ["position"]}]
    with open(path, "w") as f:
        json.dump(model, f)
    out = os.path.join(folder, "s.csv")
    r = subprocess.run([cli, "static", path, "--load-steps", "12", "--out", out], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode != 0:
        raise SystemExit(r.stdout[-2000:])
    with open(out) as f:
        rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    header = [h.split(" [")[0] for h in rows[0]]
    return float(rows[-1][header.index(case["component"])])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "flexim-cli"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "images"))
    args = parser.parse_args()
    E, a, L = 207e9, 0.1, 2.0
    I = a ** 4 / 12
    steel = {"formulation": "planar", "youngs_modulus": E, "area": a * a, "iy": I, "iz": I}
    sheared = dict(steel, shear=True)
    bend = {"formulation": "spatial", "youngs_modulus": 1e7, "shear_modulus": 5e6, "area": 1, "iy": 1 / 12,
            "iz": 1 / 12, "torsion_constant": 1 / 6, "shear": True, "shear_factor": 1}
    cases = [
        {"name": "cantilever", "label": "planar cantilever, tip y", "element": steel, "component": "tip.position.y",
         "geometry": ["--length", str(L)], "load": [0, 3 * E * I / L ** 2, 0]},
        {"name": "cantilever_shear", "label": "planar cantilever with shear, tip y", "element": sheared,
         "component": "tip.position.y", "geometry": ["--length", str(L)], "load": [0, 3 * E * I / L ** 2, 0]},
        {"name": "bend", "label": "45° bend, linear torsion, tip z", "element": bend, "component": "tip.position.z",
         "geometry": ["--arc", "100,45"], "load": [0, 0, 600]},
        {"name": "bend_ct", "label": "45° bend, constant torsion, tip z",
         "element": dict(bend, formulation="spatial_constant_torsion"), "component": "tip.position.z",
         "geometry": ["--arc", "100,45"], "load": [0, 0, 600]},
    ]
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            reference = tip(args.cli, folder, case, REFERENCE)
            errors = [abs(tip(args.cli, folder, case, n) / reference - 1) for n in COUNTS]
            results[case["label"]] = (reference, errors)
    print("| case | reference (%d elements) | " % REFERENCE + " | ".join("n = %d" % n for n in COUNTS) + " |")
    print("|---|---:|" + "---:|" * len(COUNTS))
    for label, (reference, errors) in results.items():
        print("| %s | %.6f | " % (label, reference) + " | ".join("%.1e" % e for e in errors) + " |")
    print("\nobserved orders (log2 of successive error ratios):")
    for label, (reference, errors) in results.items():
        orders = [math.log2(errors[i] / errors[i + 1]) if errors[i + 1] > 0 else float("nan")
                  for i in range(len(errors) - 1)]
        print("  %s: %s" % (label, " ".join("%.1f" % o for o in orders)))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.6), dpi=110)
    for label, (reference, errors) in results.items():
        ax.loglog(COUNTS, errors, "o-", label=label)
    n = [1, 64]
    ax.loglog(n, [1e-2 * (x / n[0]) ** -4 for x in n], "k--", lw=0.8, label="order 4")
    ax.loglog(n, [3e-3 * (x / n[0]) ** -2 for x in n], "k:", lw=0.8, label="order 2")
    ax.set_xlabel("elements n")
    ax.set_ylabel("relative error of the tip displacement")
    ax.set_title("Beam elements: convergence with the number of elements")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(args.out, "beam-convergence.png")
    fig.savefig(path)
    print("wrote", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()

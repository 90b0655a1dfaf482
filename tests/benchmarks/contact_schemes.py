#!/usr/bin/env python3
"""The mixed timestepping schemes on the clearance slider-crank: cost per step of each scheme on
the rigid (Table 1) and the flexible (Table 2) model, relative to Moreau's midpoint scheme (the
paper's Tables 3 and 5), and error against CPU time on the bilateral rigid model (no clearance,
no friction, plastic), whose reference is ED-alpha at h = 1e-6 s.

    tests/benchmarks/contact_schemes.py [--cli build/app/flexim-cli] [--runs 3]

Times are the runs' own wall times (flexim-cli's summary), the median of --runs runs; quote the
ratios, the machine is shared. Standard-library Python.
"""

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "resources", "examples")
SCHEMES = ("moreau", "hets", "mixed-gen-alpha", "mixed-bathe", "mixed-ed-alpha")


def run(cli, model, integ, extra, out):
    args = [cli, "run", model, "--integrator", integ, "--out", out] + extra
    if integ in ("mixed-gen-alpha", "mixed-ed-alpha"):
        args += ["--rho-inf", "0.5"]
    text = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True).stdout
    wall = float(re.search(r"wall time: ([0-9.e+-]+) s", text).group(1))
    steps = int(re.search(r"steps: (\d+)", text).group(1))
    return wall, steps


def column(path, name):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    i = [h.split(" [")[0] for h in rows[0]].index(name)
    return [float(r[0]) for r in rows[1:]], [float(r[i]) for r in rows[1:]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "flexim-cli"))
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "x.csv")

    print("cost per step (median of %d runs)" % a.runs)
    print("| model | scheme | steps | us per step | relative to Moreau |")
    print("|---|---|---|---|---|")
    for name, extra in (("slider_crank_clearance_rigid.json", []),
                        ("slider_crank_clearance_flexible.json", ["--t-end", "0.05"])):
        base = None
        for integ in SCHEMES:
            walls = []
            for _ in range(a.runs):
                wall, steps = run(a.cli, os.path.join(EXAMPLES, name), integ, extra, out)
                walls.append(wall / steps)
            per = statistics.median(walls)
            base = base or per
            print("| %s | %s | %d | %.1f | %.2f |" % (name.split("_clearance_")[1][:-5], integ, steps, 1e6 * per, per / base))

    # the bilateral model and its reference
    with open(os.path.join(EXAMPLES, "slider_crank_clearance_rigid.json")) as f:
        m = json.load(f)
    c = m["contacts"][0]
    c.update(clearance=0.0, friction=0.0, restitution=0.0)
    m["simulation"].update(t_end=0.05, output_interval=1e-3)
    bilateral = os.path.join(tmp, "bilateral.json")
    with open(bilateral, "w") as f:
        json.dump(m, f)
    ref = os.path.join(tmp, "ref.csv")
    run(a.cli, bilateral, "mixed-ed-alpha", ["--step", "1e-6"], ref)
    _, w_ref = column(ref, "crank.angular_velocity.z")
    print("\nerror against CPU time, bilateral rigid slider-crank, 0.05 s")
    print("| scheme | h [s] | wall [ms] | max |omega - omega_ref| / 150 rad/s |")
    print("|---|---|---|---|")
    for integ in SCHEMES:
        for h in (2e-4, 1e-4, 5e-5, 2.5e-5):
            walls = []
            for _ in range(a.runs):
                walls.append(run(a.cli, bilateral, integ, ["--step", str(h)], out)[0])
            _, w = column(out, "crank.angular_velocity.z")
            err = max(abs(x - y) for x, y in zip(w, w_ref)) / 150.0
            print("| %s | %g | %.1f | %.3g |" % (integ, h, 1e3 * statistics.median(walls), err))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Plots of the clearance slider-crank for docs/validation.md: the crank's angular velocity with
each mixed timestepping scheme, and the corner contacts' normal forces and impulses.

    scripts/plot_contact_validation.py [--cli build/app/flexim-cli] [--out docs/images]

Runs flexim-cli on resources/examples/slider_crank_clearance_{rigid,flexible}.json with each
scheme (the rigid one also with a tenth of its step as the reference) and writes
contact-omega-rigid.png, contact-forces-rigid.png and contact-omega-flexible.png. Needs
matplotlib (Debian python3-matplotlib).
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMES = (("mixed-bathe", "Bathe"), ("mixed-ed-alpha", "ED-α (ρ∞ 0.5)"),
           ("mixed-gen-alpha", "gen-α (ρ∞ 0.5)"), ("moreau", "Moreau"), ("hets", "HETS"))


def run(cli, model, integrator, out, extra=()):
    args = [cli, "run", os.path.join(ROOT, "resources", "examples", model), "--integrator", integrator,
            "--out", out] + list(extra)
    if integrator in ("mixed-ed-alpha", "mixed-gen-alpha"):
        args += ["--rho-inf", "0.5"]
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode not in (0, 3):
        sys.stdout.write(r.stdout)
        raise SystemExit("flexim-cli failed: " + " ".join(args))


def read(path):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    header = [h.split(" [")[0] for h in rows[0]]
    cols = {h: [] for h in header}
    for r in rows[1:]:
        for h, v in zip(header, r):
            cols[h].append(float(v))
    return cols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "flexim-cli"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "images"))
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("needs matplotlib (apt-get install python3-matplotlib)")
    os.makedirs(a.out, exist_ok=True)
    tmp = tempfile.mkdtemp()
    rigid = {}
    for integ, label in SCHEMES:
        path = os.path.join(tmp, "rigid_%s.csv" % integ)
        run(a.cli, "slider_crank_clearance_rigid.json", integ, path)
        rigid[integ] = read(path)
    ref = os.path.join(tmp, "rigid_reference.csv")
    run(a.cli, "slider_crank_clearance_rigid.json", "mixed-ed-alpha", ref, ["--step", "1e-6"])
    reference = read(ref)

    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.plot(reference["time"], reference["crank.angular_velocity.z"], color="0.6", lw=3,
            label="ED-α, h = 1e-6 s")
    for integ, label in SCHEMES:
        c = rigid[integ]
        ax.plot(c["time"], c["crank.angular_velocity.z"], lw=1, label=label + ", h = 1e-5 s")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("crank angular velocity [rad/s]")
    ax.set_title("Rigid slider-crank with a translational clearance joint (Table 1)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "contact-omega-rigid.png"), dpi=110)

    fig, (f1, f2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    c = rigid["mixed-bathe"]
    for k in range(1, 5):
        f1.plot(c["time"], c["guide_%d.normal_force" % k], lw=1, label="corner %d" % k)
        f2.plot(c["time"], c["guide_%d.normal_impulse" % k], lw=1, label="corner %d" % k)
    f1.set_ylabel("normal force [N]")
    f2.set_ylabel("impulse of impacts [N s]")
    f2.set_xlabel("t [s]")
    f1.set_title("Corner contacts of the slider, mixed Bathe scheme, h = 1e-5 s")
    for ax in (f1, f2):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, ncol=4)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "contact-forces-rigid.png"), dpi=110)

    fig, ax = plt.subplots(figsize=(9, 4.5))
    for integ, label in SCHEMES[:3]:
        path = os.path.join(tmp, "flexible_%s.csv" % integ)
        run(a.cli, "slider_crank_clearance_flexible.json", integ, path)
        c = read(path)
        ax.plot(c["time"], c["crank.angular_velocity.z"], lw=1, label=label)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("crank angular velocity [rad/s]")
    ax.set_title("Flexible rod, clearance 0.5 mm, 1 N m on the crank (Table 2), h = 1e-5 s")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "contact-omega-flexible.png"), dpi=110)
    print("written: contact-omega-rigid.png, contact-forces-rigid.png, contact-omega-flexible.png in " + a.out)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compare Flexim's flexible-body models with the CalculiX NLGEOM references.

    python3 scripts/compare_nlgeom.py [--cli build/app/flexim-cli] [--cases spin,pendulum]
                                      [--stiffening auto|both|on|off|as-is] [--plots DIR]
                                      [--check] [--work DIR] [--summary-json FILE]

Models: tests/validation/stiffening/*.json (built by tests/validation/stiffening/make_models.py);
references: tests/reference/nlgeom/*.csv (scripts/make_nlgeom_references.py). For each model the
script runs `flexim-cli run MODEL --out CSV`, reads the result CSV, interpolates it linearly onto
the reference's time grid and prints a table:

* spin-up beam (Kane et al. 1987): the tip transverse deflection in the hub frame,
  v = p . (-sin theta, cos theta) (p = global position of the tip-face centre node, theta = the
  prescribed hub angle), against the column tip_transverse_deflection_m of spin_up_beam.csv: the
  largest |error| over the time both cover, the reference's peak (-0.573 m) and the error in % of
  |peak|; whether the run finished and stayed bounded (|p| < 2 L);
* soft pendulum: |p_flexim(t) - p_ccx(t)| of the tip-face centre position, largest over
  0 .. T_swing (= 1.9334 s, the rigid pendulum's period: to the far side and back) and over
  0 .. 1 s, in mm and in % of L = 1 m; the rigid pendulum (soft_pendulum_rigid.csv) against the
  same reference for scale.

Geometric stiffening: when the binary knows the flexible-body key "geometric_stiffening" (it is
in `flexim-cli schema`), each model is run twice, from temporary copies with the key forced true
and false (--stiffening auto, the default, = both); otherwise once as it is, labelled
"no stiffening (binary has none)". --stiffening on/off runs one of the two only.

Exit status: 0 when every run that should finish did (and, with --check, every acceptance limit
holds); 1 when such a run failed or a limit failed; 2 on bad usage/missing files. A spin-up run
*without* stiffening is expected to diverge: its failure is reported but does not count.

Acceptance (--check): spin-up with stiffening: finished, max |v error| <= 5 % of |peak| over the
reference's span; pendulum with stiffening: max tip position error <= 0.5 % of L over 0 .. T_swing.
Without a binary that supports stiffening, --check fails (nothing to accept).

Standard-library Python; the plots (--plots DIR) need matplotlib and are skipped with a message
when it is missing.
"""

import argparse
import bisect
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MODEL_DIR = os.path.join(REPO, "tests", "validation", "stiffening")
REF_DIR = os.path.join(REPO, "tests", "reference", "nlgeom")

# spin-up manoeuvre
TS, OMEGA_S, L_SPIN = 15.0, 6.0, 10.0
SPIN_LIMIT_PCT = 5.0
T_EARLY = 4.0        # the spin-up error is also reported over 0 .. T_EARLY, where even a model without
                     # stiffening is still close (theta' <= 1.2 rad/s): it measures the modal basis
# pendulum
L_PEND = 1.0
T_SWING = 1.933359   # rigid pendulum: to phi = -pi and back (soft_pendulum_rigid.csv, README)
PEND_LIMIT_PCT = 0.5

# case -> list of (variant label, model file, primary?); the primary model is the one --check
# applies the acceptance to.
# The Craig-Bampton bodies are primary: the root face is clamped to the hub/hinge, and the free-free
# basis with the same interface frame is too stiff for a clamped root (tests/validation/stiffening/
# README.md: +13 % on the first clamped frequency of the beam with 12 elastic modes).
CASES = {
    "spin": [("Craig-Bampton", "spin_up_beam_cb.json", True),
             ("free-free", "spin_up_beam.json", False)],
    "pendulum": [("Craig-Bampton", "soft_pendulum_cb.json", True),
                 ("free-free", "soft_pendulum.json", False),
                 ("free-free, mean axes", "soft_pendulum_mean_axis.json", False)],
    # set-up check, nothing to do with stiffening: the pendulum with E x 100 (stiffness_scale 100)
    # against soft_pendulum_stiff.csv (ccx, E = 5e11 Pa, 0 .. 1.2 s): hinge, end face, gravity, mass
    "pendulum_stiff": [("Craig-Bampton", "soft_pendulum_cb.json", False)],
}
# changes to the model copies per case
OVERRIDES = {
    "pendulum_stiff": {"stiffness_scale": 100.0,
                       "simulation": {"t_end": 1.2, "integrator": "gen-alpha", "step": 5e-4,
                                      "step_control": "fixed"}},
}
T_STIFF = 1.2


def theta(t):
    if t < TS:
        return (OMEGA_S / TS) * (t * t / 2.0
                                 + (TS / (2.0 * math.pi)) ** 2 * (math.cos(2.0 * math.pi * t / TS) - 1.0))
    return OMEGA_S * (t - TS / 2.0)


# ---------------------------------------------------------------------------------------------
# CSV reading and interpolation

def read_reference(path):
    """A reference CSV: one header line, then numbers. Returns {column: [values]}."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        cols = {h: [] for h in header}
        for line in f:
            line = line.strip()
            if not line:
                continue
            parts = line.split(",")
            if len(parts) != len(header):
                continue
            for h, v in zip(header, parts):
                cols[h].append(float(v))
    return cols


def read_flexim_csv(path):
    """Flexim's result CSV: '#' metadata lines, a header row, rows. Returns (columns, meta) where
    columns maps the channel name without its unit ('tip.position.x') to the values and meta has
    'end' (the '# end:' line) and 'status' (ok|warning|failed|cancelled|missing)."""
    cols, header, meta = {}, None, {"end": "", "status": "missing", "t_reached": None}
    if not os.path.exists(path):
        return cols, meta
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                if line.startswith("# end:"):
                    meta["end"] = line[6:].strip()
                    meta["status"] = meta["end"].split()[0] if meta["end"] else "?"
                    for tok in meta["end"].split():
                        if tok.startswith("t="):
                            try:
                                meta["t_reached"] = float(tok[2:])
                            except ValueError:
                                pass
                continue
            if not line.strip():
                continue
            parts = line.split(",")
            if header is None:
                header = [p.split(" [")[0].strip() for p in parts]
                cols = {h: [] for h in header}
                continue
            if len(parts) != len(header):
                continue   # a torn last line of a crashed run
            for h, v in zip(header, parts):
                try:
                    cols[h].append(float(v))
                except ValueError:
                    cols[h].append(float("nan"))
    if meta["status"] == "missing" and header is not None:
        meta["status"] = "no-end-line"
    return cols, meta


def interp(ts, ys, t):
    """Linear interpolation of (ts, ys) at t; None outside [ts[0], ts[-1]]."""
    if not ts or t < ts[0] - 1e-9 or t > ts[-1] + 1e-9:
        return None
    i = bisect.bisect_left(ts, t)
    if i < len(ts) and abs(ts[i] - t) <= 1e-12:
        return ys[i]
    if i == 0:
        return ys[0]
    if i >= len(ts):
        return ys[-1]
    t0, t1 = ts[i - 1], ts[i]
    w = (t - t0) / (t1 - t0) if t1 > t0 else 0.0
    return ys[i - 1] * (1.0 - w) + ys[i] * w


def finite(x):
    return x is not None and not math.isnan(x) and not math.isinf(x)


# ---------------------------------------------------------------------------------------------
# running Flexim

def supports_stiffening(cli):
    try:
        r = subprocess.run([cli, "schema"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and "geometric_stiffening" in r.stdout


def model_copy(src, dst, stiffening, overrides=None):
    """Write a copy of the model src at dst with every flexible body's "geometric_stiffening" set
    to stiffening (None: left as it is) and its "file" made absolute (the copy lives elsewhere)."""
    with open(src) as f:
        model = json.load(f)
    for fb in model.get("flexible_bodies", []):
        fb["file"] = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(src)), fb["file"]))
        if stiffening is not None:
            fb["geometric_stiffening"] = bool(stiffening)
        # a model written with the key for a binary that has none: drop it (as-is runs)
        elif "geometric_stiffening" in fb and not SUPPORTS:
            del fb["geometric_stiffening"]
        if overrides and "stiffness_scale" in overrides:
            fb["stiffness_scale"] = overrides["stiffness_scale"]
    if overrides and "simulation" in overrides:
        model.setdefault("simulation", {}).update(overrides["simulation"])
    with open(dst, "w") as f:
        json.dump(model, f, indent=1)
        f.write("\n")


SUPPORTS = False


def last_row(path):
    """The last complete data row of a growing result CSV as a list of floats (or None)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 8192))
            tail = f.read().decode(errors="replace")
    except OSError:
        return None
    lines = [l for l in tail.split("\n")[:-1] if l and not l.startswith("#")]
    for line in reversed(lines):
        try:
            return [float(x) for x in line.split(",")]
        except ValueError:
            continue
    return None


def run_model(cli, model_path, out_csv, extra_args, timeout, bound):
    """Run flexim-cli on model_path. While it runs, the CSV is watched: when the tip (columns 1, 2:
    tip.position.x, .y) leaves the circle of radius `bound` the run has diverged and is stopped
    with SIGINT (Flexim then ends the CSV with '# end: cancelled'), so that a blown-up run does
    not crawl on with tiny steps for hours."""
    cmd = [cli, "run", model_path, "--out", out_csv] + extra_args
    t0 = time.time()
    stopped = None
    with open(out_csv + ".log", "w") as logf:
        logf.write(" ".join(cmd) + "\n")
        logf.flush()
        proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT)
        while True:
            try:
                proc.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                pass
            row = last_row(out_csv)
            reason = None
            if row is not None and len(row) >= 3:
                r = math.hypot(row[1], row[2])
                if math.isnan(r) or r > bound:
                    reason = "diverged: |p_tip| = %.3g m > %.3g m at t = %.3f s" % (r, bound, row[0])
            if reason is None and time.time() - t0 > timeout:
                reason = "timeout after %.0f s" % timeout
            if reason is not None and stopped is None:
                stopped = reason
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                break
    rc = proc.returncode
    wall = time.time() - t0
    with open(out_csv + ".log") as f:
        log = f.read()
    steps = None
    for line in log.splitlines():
        s = line.strip()
        if s.startswith("steps:"):
            try:
                steps = int(s.split(",")[0].split()[1])
            except (IndexError, ValueError):
                pass
    return {"rc": rc, "wall": wall, "steps": steps, "cmd": " ".join(cmd), "log": out_csv + ".log",
            "stopped": stopped}


# ---------------------------------------------------------------------------------------------
# comparisons

def compare_spin(cols, ref):
    t = cols.get("time", [])
    px, py = cols.get("tip.position.x", []), cols.get("tip.position.y", [])
    hub = cols.get("hub.coordinate.rotation", [])
    v = [x * -math.sin(theta(tt)) + y * math.cos(theta(tt)) for tt, x, y in zip(t, px, py)]
    res = {"t": t, "v": v}
    # bounded: finite and |p| < 2 L at every sample
    bounded, t_unbounded = True, None
    for tt, x, y in zip(t, px, py):
        if not (finite(x) and finite(y)) or math.hypot(x, y) > 2.0 * L_SPIN:
            bounded, t_unbounded = False, tt
            break
    res["bounded"], res["t_unbounded"] = bounded, t_unbounded
    # first time |v| exceeds 2 x the reference peak (a growing lag = divergence)
    peak_ref = max(abs(x) for x in ref["tip_transverse_deflection_m"])
    res["t_diverge"] = next((tt for tt, vv in zip(t, v) if not finite(vv) or abs(vv) > 2.0 * peak_ref), None)
    # hub angle against the prescription (checks the table driver)
    res["hub_err"] = max((abs(h - theta(tt)) for tt, h in zip(t, hub) if finite(h)), default=None)
    # error on the reference grid
    tr, vr = ref["t_s"], ref["tip_transverse_deflection_m"]
    worst, t_worst, t_last, flex_peak, errs = 0.0, None, None, 0.0, []
    early = 0.0
    for tt, vv in zip(tr, vr):
        vf = interp(t, v, tt)
        if vf is None:
            continue
        if not finite(vf):
            worst, t_worst = float("inf"), tt
            errs.append((tt, float("nan")))
            break
        e = vf - vv
        errs.append((tt, e))
        t_last = tt
        flex_peak = max(flex_peak, abs(vf))
        if abs(e) > worst:
            worst, t_worst = abs(e), tt
        if tt <= T_EARLY + 1e-9:
            early = max(early, abs(e))
    res["max_err_early"] = early
    res.update({"max_err": worst, "t_max_err": t_worst, "t_compared": t_last, "peak_ref": peak_ref,
                "peak_ref_signed": min(vr) if abs(min(vr)) >= abs(max(vr)) else max(vr),
                "t_peak_ref": tr[max(range(len(vr)), key=lambda i: abs(vr[i]))],
                "peak_flexim": flex_peak, "err_pct": 100.0 * worst / peak_ref, "errs": errs,
                "ref_end": tr[-1]})
    return res


def pend_errors(tq, xq, yq, ref, t_max):
    """max |p(t) - p_ref(t)| over reference times <= t_max (None if the data do not cover it)."""
    worst, t_worst, covered = 0.0, None, True
    for tt, xr, yr in zip(ref["t_s"], ref["tip_x_m"], ref["tip_y_m"]):
        if tt > t_max + 1e-9:
            break
        x, y = interp(tq, xq, tt), interp(tq, yq, tt)
        if x is None or y is None:
            covered = False
            break
        if not (finite(x) and finite(y)):
            return float("inf"), tt, False
        e = math.hypot(x - xr, y - yr)
        if e > worst:
            worst, t_worst = e, tt
    return worst, t_worst, covered


def error_series(tq, xq, yq, ref):
    out = []
    for tt, xr, yr in zip(ref["t_s"], ref["tip_x_m"], ref["tip_y_m"]):
        x, y = interp(tq, xq, tt), interp(tq, yq, tt)
        if x is None or y is None:
            break
        out.append((tt, math.hypot(x - xr, y - yr) if finite(x) and finite(y) else float("nan")))
    return out


def compare_pendulum(cols, ref, t_long=T_SWING):
    t = cols.get("time", [])
    x, y = cols.get("tip.position.x", []), cols.get("tip.position.y", [])
    res = {"bounded": all(finite(a) and finite(b) and math.hypot(a, b) < 2.0 * L_PEND for a, b in zip(x, y))}
    res["max_swing"], res["t_max_swing"], res["cov_swing"] = pend_errors(t, x, y, ref, t_long)
    res["max_1s"], res["t_max_1s"], res["cov_1s"] = pend_errors(t, x, y, ref, 1.0)
    res["errs"] = error_series(t, x, y, ref)
    hinge = cols.get("hinge.coordinate.rotation", [])
    he = [abs(interp(t, hinge, tt) - hr) for tt, hr in zip(ref["t_s"], ref["hinge_angle_rad"])
          if tt <= t_long + 1e-9 and interp(t, hinge, tt) is not None]
    res["hinge_err"] = max(he) if he else None
    res["pct_swing"] = 100.0 * res["max_swing"] / L_PEND
    res["pct_1s"] = 100.0 * res["max_1s"] / L_PEND
    return res


# ---------------------------------------------------------------------------------------------
# plots (optional)

def make_plots(plot_dir, spin_results, spin_ref, pend_results, pend_ref, rigid_errs):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plots skipped: matplotlib is not installed (apt-get install python3-matplotlib)")
        return []
    os.makedirs(plot_dir, exist_ok=True)

    def finish(fig, ax, name):
        """Grid, legend, layout; writes the PNG and returns its path."""
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        path = os.path.join(plot_dir, name)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        return path

    written = []
    if spin_results:
        fig, ax = plt.subplots(figsize=(9, 5))
        ax.plot(spin_ref["t_s"], spin_ref["tip_transverse_deflection_m"], "k-", lw=2.2,
                label="CalculiX NLGEOM (reference)")
        lo, hi = min(spin_ref["tip_transverse_deflection_m"]), max(spin_ref["tip_transverse_deflection_m"])
        for r in spin_results:
            c = r["cmp"]
            if c and c["t"]:
                ax.plot(c["t"], c["v"], lw=1.2, label="Flexim " + r["label"])
        span = hi - lo
        ax.set_ylim(lo - 0.5 * span, hi + 0.5 * span)
        ax.set_xlim(0, 16)
        ax.set_xlabel("t [s]")
        ax.set_ylabel("tip deflection in the hub frame v [m]")
        ax.set_title("Spin-up beam (Kane et al. 1987): tip transverse deflection")
        written.append(finish(fig, ax, "spin_up_tip_deflection.png"))
    if pend_results or rigid_errs:
        fig, ax = plt.subplots(figsize=(9, 5))
        if rigid_errs:
            ax.plot([e[0] for e in rigid_errs], [1e3 * e[1] for e in rigid_errs], "k--", lw=1.2,
                    label="rigid pendulum (scale)")
        for r in pend_results:
            c = r["cmp"]
            if c and c["errs"]:
                ax.plot([e[0] for e in c["errs"]], [1e3 * e[1] for e in c["errs"]], lw=1.2,
                        label="Flexim " + r["label"])
        ax.axhline(1e3 * PEND_LIMIT_PCT / 100.0 * L_PEND, color="r", lw=0.8, ls=":",
                   label="acceptance %.1f %% of L" % PEND_LIMIT_PCT)
        ax.axvline(T_SWING, color="grey", lw=0.8, ls=":")
        ax.set_xlabel("t [s]")
        ax.set_ylabel("|p_tip - p_tip,ccx| [mm]")
        ax.set_title("Soft pendulum: tip position error against CalculiX NLGEOM")
        written.append(finish(fig, ax, "pendulum_tip_error.png"))
    return written


# ---------------------------------------------------------------------------------------------

def fmt(x, spec):
    if x is None:
        return "-"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return "inf" if math.isinf(x) else "nan"
    return spec % x


def main():
    global SUPPORTS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", default=os.path.join(REPO, "build", "app", "flexim-cli"),
                    help="flexim-cli binary (default: build/app/flexim-cli)")
    ap.add_argument("--models-dir", default=MODEL_DIR,
                    help="folder of the models (default tests/validation/stiffening), e.g. a copy reduced by another binary")
    ap.add_argument("--cases", default="spin,pendulum,pendulum_stiff",
                    help="comma-separated: spin, pendulum, pendulum_stiff (default: all three)")
    ap.add_argument("--variants", default="all",
                    help="comma-separated model variants: free-free, Craig-Bampton, or all (default)")
    ap.add_argument("--stiffening", default="auto", choices=["auto", "both", "on", "off", "as-is"],
                    help="auto (= both when the binary supports it, else as-is)")
    ap.add_argument("--run-args", default="",
                    help="extra arguments for 'flexim-cli run', e.g. \"--integrator gen-alpha --step 0.005\"")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per run (default 3600)")
    ap.add_argument("--work", help="directory for the model copies and result CSVs (default: a temporary one, deleted)")
    ap.add_argument("--plots", metavar="DIR", help="write PNG plots to DIR (needs matplotlib)")
    ap.add_argument("--check", action="store_true", help="apply the acceptance limits (exit 1 if one fails)")
    ap.add_argument("--summary-json", metavar="FILE", help="write the numbers as JSON")
    a = ap.parse_args()

    cli = os.path.abspath(a.cli)
    if not os.path.exists(cli):
        print("error: no flexim-cli at %s (give --cli)" % cli, file=sys.stderr)
        return 2
    cases = [c.strip() for c in a.cases.split(",") if c.strip()]
    for c in cases:
        if c not in CASES:
            print("error: unknown case %r (spin, pendulum, pendulum_stiff)" % c, file=sys.stderr)
            return 2
    variants = None if a.variants == "all" else {v.strip().lower() for v in a.variants.split(",")}

    SUPPORTS = supports_stiffening(cli)
    if a.stiffening == "auto":
        modes = [True, False] if SUPPORTS else [None]
    elif a.stiffening == "both":
        modes = [True, False]
    elif a.stiffening == "on":
        modes = [True]
    elif a.stiffening == "off":
        modes = [False]
    else:
        modes = [None]
    if any(m is not None for m in modes) and not SUPPORTS:
        print("error: %s does not know \"geometric_stiffening\" (not in 'flexim-cli schema'); "
              "use --stiffening as-is" % cli, file=sys.stderr)
        return 2
    print("flexim-cli: %s (geometric_stiffening %s)" % (cli, "supported" if SUPPORTS else "NOT supported: models run as they are"))

    work = a.work or tempfile.mkdtemp(prefix="compare_nlgeom_")
    os.makedirs(work, exist_ok=True)
    extra = a.run_args.split() if a.run_args else []

    spin_ref = read_reference(os.path.join(REF_DIR, "spin_up_beam.csv")) if "spin" in cases else None
    pend_ref = read_reference(os.path.join(REF_DIR, "soft_pendulum.csv")) if "pendulum" in cases else None
    rigid = read_reference(os.path.join(REF_DIR, "soft_pendulum_rigid.csv")) if "pendulum" in cases else None

    stiff_ref = read_reference(os.path.join(REF_DIR, "soft_pendulum_stiff.csv")) if "pendulum_stiff" in cases else None
    results = {"spin": [], "pendulum": [], "pendulum_stiff": []}
    stale_frb = []
    failed_required = []
    for case in cases:
        for vlabel, model, primary in CASES[case]:
            if variants is not None and vlabel.lower() not in variants:
                continue
            src = os.path.join(os.path.abspath(a.models_dir), model)
            if not os.path.exists(src):
                print("skipped: %s (not built; see tests/validation/stiffening/README.md)" % os.path.relpath(src, REPO))
                continue
            for st in modes:
                tag = {True: "stiff", False: "nostiff", None: "asis"}[st]
                label = "%s, %s" % (vlabel, {True: "stiffening", False: "no stiffening",
                                             None: "as is" if SUPPORTS else "no stiffening (binary has none)"}[st])
                stem = "%s_%s%s" % (os.path.splitext(model)[0], tag, "_E100" if case == "pendulum_stiff" else "")
                mpath = os.path.join(work, stem + ".json")
                model_copy(src, mpath, st, OVERRIDES.get(case))
                out = os.path.join(work, stem + ".csv")
                print("running %-45s ..." % (model + (" E x 100" if case == "pendulum_stiff" else "")
                                             + " [" + label + "]"), end="", flush=True)
                run = run_model(cli, mpath, out, extra, a.timeout,
                                bound=3.0 * (L_SPIN if case == "spin" else L_PEND))
                cols, meta = read_flexim_csv(out)
                if run["stopped"]:
                    meta["status"] = "diverged" if run["stopped"].startswith("diverged") else "timeout"
                print(" %s in %.1f s (exit %s)%s" % (meta["status"], run["wall"], run["rc"],
                                                    "; stopped: " + run["stopped"] if run["stopped"] else ""),
                      flush=True)
                finished = run["rc"] in (0, 3) and meta["status"] in ("ok", "warning")
                cmp = None
                if cols.get("time"):
                    if case == "spin":
                        cmp = compare_spin(cols, spin_ref)
                    elif case == "pendulum":
                        cmp = compare_pendulum(cols, pend_ref)
                    else:
                        cmp = compare_pendulum(cols, stiff_ref, T_STIFF)
                if not finished and cmp and cmp.get("bounded") is False:
                    meta["status"] = "diverged"
                # a spin-up run without stiffening may diverge: that is the expected result
                may_fail = case == "spin" and st is not True
                if not finished and not may_fail:
                    failed_required.append("%s [%s]: %s" % (model, label, meta["end"] or "exit %s" % run["rc"]))
                logtext = open(run["log"]).read()
                if st is not None and "geometric_stiffening: warning: unknown key" in logtext:
                    print("  WARNING: the binary ignored \"geometric_stiffening\" (unknown key in the run's log)")
                if st is True and "has no stiffening load cases" in logtext:
                    print("  WARNING: the .frb has no stiffening load cases, so this run has NO stiffening: "
                          "reduce again (python3 tests/validation/stiffening/make_models.py --cli %s)" % a.cli)
                    stale_frb.append(model)
                results[case].append({"label": label, "model": model, "variant": vlabel, "primary": primary,
                                      "stiffening": st, "finished": finished, "status": meta["status"],
                                      "end": meta["end"], "t_reached": meta["t_reached"], "run": run,
                                      "cmp": cmp, "csv": out})

    # ---------------- report
    check_fail = []
    if results["spin"]:
        r0 = results["spin"][0]["cmp"]
        print()
        print("Spin-up beam: tip deflection in the hub frame v against spin_up_beam.csv "
              "(reference t = 0 .. %.2f s, peak %.4f m at %.2f s)"
              % (spin_ref["t_s"][-1], min(spin_ref["tip_transverse_deflection_m"]),
                 spin_ref["t_s"][min(range(len(spin_ref["t_s"])), key=lambda i: spin_ref["tip_transverse_deflection_m"][i])]))
        hdr = "%-56s %-9s %7s %7s %9s %7s %9s %9s %10s %9s %12s %8s" % (
            "model", "end", "t_end", "steps", "wall [s]", "bounded", "diverge t", "max|e| m", "% of peak",
            "compared", "0-%gs max|e|" % T_EARLY, "hub err")
        print(hdr)
        print("-" * len(hdr))
        for r in results["spin"]:
            c = r["cmp"] or {}
            print("%-56s %-9s %7s %7s %9.1f %7s %9s %9s %10s %9s %12s %8s" % (
                (r["model"] + " " + r["label"].split(", ", 1)[1])[:56], r["status"], fmt(r["t_reached"], "%.2f"),
                fmt(r["run"]["steps"], "%d"), r["run"]["wall"],
                {True: "yes", False: "NO"}.get(c.get("bounded"), "-"), fmt(c.get("t_diverge"), "%.2f"),
                fmt(c.get("max_err"), "%.4f"), fmt(c.get("err_pct"), "%.1f"),
                ("0-" + fmt(c.get("t_compared"), "%.2f")) if c.get("t_compared") is not None else "-",
                fmt(c.get("max_err_early"), "%.4f"), fmt(c.get("hub_err"), "%.1e")))
            if a.check and r["primary"] and r["stiffening"] is True:
                ok = r["finished"] and c and c.get("err_pct") is not None and c["err_pct"] <= SPIN_LIMIT_PCT
                print("  check: %s: max |v error| %s %% of the peak (limit %.0f %%)%s"
                      % ("PASS" if ok else "FAIL", fmt(c.get("err_pct"), "%.2f"), SPIN_LIMIT_PCT,
                         "" if r["finished"] else ", run did not finish"))
                if not ok:
                    check_fail.append("spin-up " + r["label"])
        if spin_ref["t_s"][-1] < 16.0 - 1e-6:
            print("  note: the reference ends at %.2f s (the ccx run may still be completing it; rerun this script)"
                  % spin_ref["t_s"][-1])

    rigid_errs = None
    if results["pendulum"]:
        rg_sw = pend_errors(rigid["t_s"], rigid["tip_x_m"], rigid["tip_y_m"], pend_ref, T_SWING)
        rg_1 = pend_errors(rigid["t_s"], rigid["tip_x_m"], rigid["tip_y_m"], pend_ref, 1.0)
        rigid_errs = error_series(rigid["t_s"], rigid["tip_x_m"], rigid["tip_y_m"], pend_ref)
        rh = max(abs(interp(rigid["t_s"], rigid["hinge_angle_rad"], t) - h)
                 for t, h in zip(pend_ref["t_s"], pend_ref["hinge_angle_rad"]) if t <= T_SWING + 1e-9)
        print()
        print("Soft pendulum: tip-centre position |p - p_ccx| against soft_pendulum.csv, L = %.0f m, "
              "T_swing = %.4f s" % (L_PEND, T_SWING))
        hdr = "%-56s %-9s %6s %7s %9s %14s %10s %14s %10s %10s" % (
            "model", "end", "t_end", "steps", "wall [s]", "0-T max [mm]", "% of L", "0-1 s max [mm]", "% of L",
            "hinge err")
        print(hdr)
        print("-" * len(hdr))
        for r in results["pendulum"]:
            c = r["cmp"] or {}
            print("%-56s %-9s %6s %7s %9.1f %14s %10s %14s %10s %10s" % (
                (r["model"] + " " + r["label"].split(", ", 1)[1])[:56], r["status"], fmt(r["t_reached"], "%.2f"),
                fmt(r["run"]["steps"], "%d"), r["run"]["wall"],
                fmt(1e3 * c["max_swing"], "%.2f") + ("@%.2f" % c["t_max_swing"] if c.get("t_max_swing") else "") if c else "-",
                fmt(c.get("pct_swing"), "%.3f") + ("" if c.get("cov_swing", True) else "*"),
                fmt(1e3 * c["max_1s"], "%.2f") + ("@%.2f" % c["t_max_1s"] if c.get("t_max_1s") else "") if c else "-",
                fmt(c.get("pct_1s"), "%.3f"), fmt(c.get("hinge_err"), "%.4f")))
            if a.check and r["primary"] and r["stiffening"] is True:
                ok = r["finished"] and c and c.get("cov_swing") and c["pct_swing"] <= PEND_LIMIT_PCT
                print("  check: %s: max tip error %s %% of L over 0 .. %.3f s (limit %.1f %%)"
                      % ("PASS" if ok else "FAIL", fmt(c.get("pct_swing"), "%.3f"), T_SWING, PEND_LIMIT_PCT))
                if not ok:
                    check_fail.append("pendulum " + r["label"])
        print("%-56s %-9s %6s %7s %9s %14s %10.3f %14s %10.3f %10.4f" % (
            "rigid pendulum (soft_pendulum_rigid.csv)", "-", "-", "-", "-",
            "%.2f@%.2f" % (1e3 * rg_sw[0], rg_sw[1]), 100 * rg_sw[0] / L_PEND,
            "%.2f@%.2f" % (1e3 * rg_1[0], rg_1[1]), 100 * rg_1[0] / L_PEND, rh))
        print("  (* = the run does not cover 0 .. T_swing; hinge err = max |hinge angle - ccx| over 0 .. T_swing [rad])")

    if results["pendulum_stiff"]:
        rigid_s = read_reference(os.path.join(REF_DIR, "soft_pendulum_rigid.csv"))
        rs = pend_errors(rigid_s["t_s"], rigid_s["tip_x_m"], rigid_s["tip_y_m"], stiff_ref, T_STIFF)
        print()
        print("Set-up check: pendulum with E x 100 (stiffness_scale 100) against soft_pendulum_stiff.csv "
              "(ccx, E = 5e11 Pa), 0 .. %.1f s" % T_STIFF)
        for r in results["pendulum_stiff"]:
            c = r["cmp"] or {}
            print("  %-56s %-9s max tip error %s mm at %s s, hinge %s rad; steps %s, %.1f s"
                  % (r["model"] + " " + r["label"].split(", ", 1)[1], r["status"],
                     fmt(1e3 * c["max_swing"] if c else None, "%.3f"), fmt(c.get("t_max_swing"), "%.2f"),
                     fmt(c.get("hinge_err"), "%.1e"), fmt(r["run"]["steps"], "%d"), r["run"]["wall"]))
        print("  %-56s %-9s max tip error %.3f mm at %.2f s" % ("rigid pendulum (soft_pendulum_rigid.csv)", "-",
                                                               1e3 * rs[0], rs[1]))

    if a.check and not SUPPORTS:
        check_fail.append("the binary has no geometric stiffening: nothing to accept")
    elif a.check:
        for case in [c for c in cases if c != "pendulum_stiff"]:
            if not any(r["primary"] and r["stiffening"] is True for r in results[case]):
                check_fail.append("%s: the primary model (%s) did not run with stiffening"
                                  % (case, [m for _, m, p in CASES[case] if p][0]))

    if a.plots:
        for p in make_plots(a.plots, results["spin"], spin_ref, results["pendulum"], pend_ref, rigid_errs):
            print("plot:", p)

    if a.summary_json:
        def strip(r):
            d = {k: v for k, v in r.items() if k not in ("cmp",)}
            if r["cmp"]:
                d["cmp"] = {k: v for k, v in r["cmp"].items() if k not in ("t", "v", "errs")}
            return d
        with open(a.summary_json, "w") as f:
            json.dump({"cli": cli, "stiffening_supported": SUPPORTS,
                       "spin": [strip(r) for r in results["spin"]],
                       "pendulum": [strip(r) for r in results["pendulum"]],
                       "pendulum_stiff": [strip(r) for r in results["pendulum_stiff"]]}, f, indent=1, default=str)

    print()
    print("work directory:", work, "(kept)" if a.work else "(deleted)")
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    for f in failed_required:
        print("FAILED run:", f)
    for m in sorted(set(stale_frb)):
        print("NOTE: %s: its .frb has no stiffening load cases (reduce again with this binary)" % m)
        if a.check:
            check_fail.append("%s: .frb without stiffening load cases" % m)
    for f in check_fail:
        print("CHECK FAILED:", f)
    return 1 if failed_required or check_fail else 0


if __name__ == "__main__":
    sys.exit(main())

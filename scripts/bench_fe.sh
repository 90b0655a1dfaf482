#!/usr/bin/env bash
# FE benchmark: Flexim against CalculiX on a ~100 000-node C3D10 mesh, free-free modes.
#
#   scripts/bench_fe.sh [BUILD_DIR]        (default BUILD_DIR: $FLEXIM_BUILD_DIR or <repo>/build-bench)
#
# 1. gmsh meshes the connecting rod of tests/data/fe/conrod/conrod.geo with a smaller element
#    size (copied to the work directory; nothing is written into the repository).
# 2. The gmsh .inp is converted for ccx as scripts/make_fixtures.py does (2-D element blocks
#    dropped) and a free-free deck is written: steel, *FREQUENCY with 6 + MODES modes, no
#    *NODE FILE (ccx writes only the .dat; Flexim keeps the modes in memory).
# 3. bench_fe (import, assembly, modes) and ccx run on the same deck, one after the other, each
#    under /usr/bin/time -v (wall time, max RSS).
# 4. Prints a table: times, memory, ratio ccx/Flexim, agreement of the frequencies.
#
# Environment (all optional):
#   BENCH_FE_H=0.00125     element size [m] (0.00125 -> 102 387 nodes, 0.006 = the fixture)
#   BENCH_FE_MODES=20      elastic modes (6 rigid modes are added)
#   BENCH_FE_DIR=DIR       work directory (kept; an existing mesh of the same size is reused).
#                          Default: a fresh temporary directory, deleted at the end.
#   BENCH_FE_THREADS=N     threads given to ccx (default: nproc). Sets OMP_NUM_THREADS,
#                          CCX_NPROC_EQUATION_SOLVER, CCX_NPROC_STIFFNESS, CCX_NPROC_RESULTS and
#                          NUMBER_OF_CPUS to N. Flexim's own threading is whatever the linked
#                          BLAS does (reference BLAS: 1 thread).
#   BENCH_FE_CCX=0         skip ccx
#   BENCH_FE_ARGS="..."    extra arguments for bench_fe (e.g. "--factor default --factor metis")
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-${FLEXIM_BUILD_DIR:-$ROOT/build-bench}}"
H="${BENCH_FE_H:-0.00125}"
MODES="${BENCH_FE_MODES:-20}"
THREADS="${BENCH_FE_THREADS:-$(nproc 2>/dev/null || echo 2)}"
RUN_CCX="${BENCH_FE_CCX:-1}"
read -r -a EXTRA <<<"${BENCH_FE_ARGS:-}"

log() { printf '==> %s\n' "$*" >&2; }
die() {
  printf '==> ERROR: %s\n' "$*" >&2
  exit 1
}

for tool in gmsh python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || die "needs $tool (Debian packages gmsh, python3, time)"
done
if [[ "$RUN_CCX" == 1 ]]; then command -v ccx >/dev/null || die "needs ccx (Debian package calculix-ccx) or BENCH_FE_CCX=0"; fi

[[ -d "$BUILD" ]] || die "no build directory $BUILD; first: cmake -S . -B $BUILD -DFLEXIM_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release"
BUILD="$(cd "$BUILD" && pwd)"
BENCH="$BUILD/tests/benchmarks/bench_fe"
if [[ ! -x "$BENCH" || "$ROOT/tests/benchmarks/bench_fe.cpp" -nt "$BENCH" ]]; then
  [[ -f "$BUILD/CMakeCache.txt" ]] ||
    die "no build in $BUILD; first: cmake -S . -B $BUILD -DFLEXIM_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release"
  log "building bench_fe in $BUILD"
  cmake --build "$BUILD" -j"$(nproc)" --target bench_fe >&2
fi
grep -q 'CMAKE_BUILD_TYPE:STRING=Release' "$BUILD/CMakeCache.txt" ||
  log "WARNING: $BUILD is not a Release build; the figures will not be representative"

if [[ -n "${BENCH_FE_DIR:-}" ]]; then
  WORK="$BENCH_FE_DIR"
  mkdir -p "$WORK"
else
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/flexim_bench_fe.XXXXXX")"
  trap 'rm -rf "$WORK"' EXIT
fi
WORK="$(cd "$WORK" && pwd)"
log "work directory: $WORK"
cd "$WORK"

# ---- 1. mesh (gmsh single-threaded, as for the fixtures: deterministic)
if [[ -f mesh_gmsh.inp && -f mesh.size && "$(cat mesh.size)" == "$H" ]]; then
  log "reusing the mesh for h = $H"
else
  rm -f mesh_gmsh.inp mesh.msh mesh.size
  sed -e "s/^h  *= *[0-9.eE+-]*;/h  = $H;/" "$ROOT/tests/data/fe/conrod/conrod.geo" >conrod.geo
  grep -q "^h  = $H;" conrod.geo || die "could not set the element size in conrod.geo"
  log "meshing the connecting rod with h = $H m (gmsh, 1 thread; 3 s for 100 000 nodes on a quiet machine)"
  /usr/bin/time -f '%e s wall, %M KB max RSS' -o gmsh.time gmsh -nt 1 conrod.geo - >gmsh.log 2>&1 ||
    die "gmsh failed, see $WORK/gmsh.log"
  rm -f mesh.msh
  echo "$H" >mesh.size
fi

# ---- 2. ccx deck (conversion as in make_fixtures.py)
python3 - "$ROOT/scripts" "$MODES" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from make_fixtures import gmsh_inp_to_ccx, material_block
gmsh_inp_to_ccx("mesh_gmsh.inp", "mesh_ccx.inp")
with open("conrod_free.inp", "w") as f:
    f.write("*HEADING\nconnecting rod, C3D10, free-free (scripts/bench_fe.sh)\n")
    f.write("*INCLUDE, INPUT=mesh_ccx.inp\n")
    f.write(material_block("CONROD"))
    f.write("*STEP\n*FREQUENCY\n%d\n*END STEP\n" % (6 + int(sys.argv[2])))
EOF

# ---- 3a. Flexim
log "running bench_fe (import + assembly + $MODES elastic modes)"
/usr/bin/time -v -o bench_fe.time "$BENCH" conrod_free.inp --modes "$MODES" "${EXTRA[@]}" >bench_fe.log 2>&1 ||
  {
    cat bench_fe.log >&2
    die "bench_fe failed"
  }
grep -v '^mode,' bench_fe.log >&2

# ---- 3b. CalculiX
if [[ "$RUN_CCX" == 1 ]]; then
  rm -f conrod_free.dat conrod_free.frd
  log "running ccx with $THREADS threads (OMP_NUM_THREADS, CCX_NPROC_EQUATION_SOLVER, CCX_NPROC_STIFFNESS," \
    "CCX_NPROC_RESULTS, NUMBER_OF_CPUS = $THREADS)"
  env OMP_NUM_THREADS="$THREADS" CCX_NPROC_EQUATION_SOLVER="$THREADS" CCX_NPROC_STIFFNESS="$THREADS" \
    CCX_NPROC_RESULTS="$THREADS" NUMBER_OF_CPUS="$THREADS" \
    /usr/bin/time -v -o ccx.time ccx -i conrod_free >ccx.log 2>&1 || {
    tail -20 ccx.log >&2
    die "ccx failed"
  }
  if grep -q '\*ERROR\|info=-' ccx.log; then
    grep '\*ERROR\|info=-' ccx.log >&2
    die "ccx reported an error, see $WORK/ccx.log"
  fi
fi

# ---- 4. table
python3 - "$ROOT/scripts" "$RUN_CCX" "$THREADS" <<'EOF'
import os, re, sys
sys.path.insert(0, sys.argv[1])
from make_fixtures import frequencies
run_ccx = sys.argv[2] == "1"
threads = sys.argv[3]

def gnu_time(path):
    """wall [s], max RSS [MB], user+sys [s] from /usr/bin/time -v."""
    t = open(path).read()
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t)
    wall = 0.0
    for part in m.group(1).split(":"):
        wall = wall * 60 + float(part)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024.0
    cpu = float(re.search(r"User time \(seconds\): (\S+)", t).group(1)) + \
        float(re.search(r"System time \(seconds\): (\S+)", t).group(1))
    return wall, rss, cpu

log = open("bench_fe.log").read()
def key(name, conv=float):
    m = re.search(r"^%s\s+(\S+)" % name, log, re.M)
    return conv(m.group(1)) if m else None

ours = [(int(p[1]), float(p[2]), p[4]) for p in (l.split(",") for l in log.splitlines() if l.startswith("mode,"))]
fw, frss, fcpu = gnu_time("bench_fe.time")
gmsh_time = open("gmsh.time").read().strip() if os.path.exists("gmsh.time") else "(mesh reused)"
m = re.search(r"^libraries: (.*)$", log, re.M)
libs = m.group(1) if m else ""
blas = ("OpenBLAS" + (" (pthread)" if "pthread" in libs else "") if "openblas" in libs.lower()
        else "reference BLAS (netlib, 1 thread)" if "/blas/libblas" in libs else libs or "unknown")

print()
print("FE benchmark: connecting rod, C3D10, free-free, %d nodes, %d elements, %d dofs, %d elastic modes"
      % (key("nodes", int), key("elements", int), key("dofs", int), sum(1 for m in ours if m[2] == "elastic")))
print("gmsh meshing: %s" % gmsh_time)
print("BLAS used by CHOLMOD (and by ccx's ARPACK/LAPACK, same dynamic linker): %s" % blas)
if os.environ.get("OPENBLAS_NUM_THREADS"):
    print("OPENBLAS_NUM_THREADS=%s" % os.environ["OPENBLAS_NUM_THREADS"])
print()
print("Flexim phases: import %.2f s, assembly %.2f s, modes %.2f s (shift %.4g, %d solves, %d restarts), "
      "total %.2f s, peak RSS %.0f MB (getrusage)"
      % (key("import_s"), key("assembly_s"), key("eigen_s"), key("shift"), key("solves", int),
         key("restarts", int), key("total_s"), key("peak_rss_mb")))
print()
rows = [("", "Flexim", "ccx 2.20" if run_ccx else "", "ccx/Flexim" if run_ccx else "")]
if run_ccx:
    cw, crss, ccpu = gnu_time("ccx.time")
    m = re.search(r"Total CalculiX Time:\s*(\S+)", open("ccx.log").read())
    rows.append(("wall [s] (process, /usr/bin/time)", "%.2f" % fw, "%.2f" % cw, "%.2f" % (cw / fw)))
    rows.append(("cpu user+sys [s]", "%.2f" % fcpu, "%.2f" % ccpu, "%.2f" % (ccpu / fcpu)))
    rows.append(("max RSS [MB]", "%.0f" % frss, "%.0f" % crss, "%.2f" % (crss / frss)))
    if m:
        rows.append(("ccx's own 'Total CalculiX Time' [s]", "", m.group(1), ""))
    rows.append(("threads", "BLAS's", threads, ""))
else:
    rows.append(("wall [s] (process, /usr/bin/time)", "%.2f" % fw, "", ""))
    rows.append(("max RSS [MB]", "%.0f" % frss, "", ""))
w = [max(len(r[i]) for r in rows) for i in range(4)]
for r in rows:
    print("  %-*s  %*s  %*s  %*s" % (w[0], r[0], w[1], r[1], w[2], r[2], w[3], r[3]))

if run_ccx:
    ref = frequencies("conrod_free.dat")
    print()
    print("  mode   Flexim f [Hz]     ccx f [Hz]    rel. diff")
    worst = 0.0
    for (n, f, kind), (_, _, fc) in zip(ours, ref):
        if kind == "elastic":
            d = abs(f - fc) / fc
            worst = max(worst, d)
            print("  %4d  %14.6f  %14.6f  %10.2e" % (n, f, fc, d))
        else:
            print("  %4d  %14s  %14.6g  (rigid)" % (n, "0", fc))
    print()
    print("max relative frequency difference (elastic modes): %.2e" % worst)
    print("(ccx integrates the C3D10 mass with 4 points, Flexim exactly; ccx's .dat has 8 digits)")
EOF

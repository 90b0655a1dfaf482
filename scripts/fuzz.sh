#!/usr/bin/env bash
# Fuzz every file reader: runs each libFuzzer target of tests/fuzz for a chosen time, one after
# the other, and prints a summary table (executions, exec/s, coverage, corpus, result).
#
#   scripts/fuzz.sh [SECONDS] [TARGET ...]        SECONDS per target (default 60)
#   scripts/fuzz.sh --runs N [TARGET ...]         N executions per target instead of a time
#
#   TARGET      inp frd dat matrix msh nastran frb model (default: all that are built)
#   --report F  also write the summary table (Markdown) to F
#
# Builds the fuzzers first when needed (configuring $FLEXIM_BUILD_DIR, default build/, if it has
# never been configured); needs clang and libclang-rt-14-dev (scripts/packages.txt). Each
# target starts from its committed seeds (tests/fuzz/corpus/<target> and small fixtures) and
# from what earlier runs found (<build>/tests/fuzz/corpus/<target>, kept between runs).
# A crash, leak, hang (> 10 s per input) or sanitizer report is written to
# <build>/tests/fuzz/artifacts/<target>-crash-... (or leak-, timeout-, oom-); reproduce it with
# <build>/tests/fuzz/fuzz_<target> FILE. Logs: <build>/tests/fuzz/logs/<target>.log.
# The fuzzers run under "nice -n 15", one at a time; exit status 1 if any target failed.
# More: docs/fuzzing.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FLEXIM_BUILD_DIR:-$ROOT/build}"
FUZZ="$BUILD/tests/fuzz"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }
log() { printf '==> %s\n' "$*" >&2; }
die() {
  printf '==> ERROR: %s\n' "$*" >&2
  exit 2
}

seconds=60
runs=""
report=""
targets=()
while (($# > 0)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --runs) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--runs needs a number of executions"; runs="$2"; shift 2 ;;
    --report) [[ $# -ge 2 ]] || die "--report needs a file name"; report="$2"; shift 2 ;;
    -*) die "unknown option '$1' (see scripts/fuzz.sh --help)" ;;
    *)
      if [[ "$1" =~ ^[0-9]+$ ]]; then
        seconds="$1"
      else
        targets+=("$1")
      fi
      shift
      ;;
  esac
done

# ---- build -----------------------------------------------------------------------------------
if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
  extra=()
  [[ -n "${FLEXIM_CMAKE_ARGS:-}" ]] && read -r -a extra <<<"$FLEXIM_CMAKE_ARGS"
  log "configuring (Release) in $BUILD"
  nice -n 10 cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" >&2
fi
[[ -f "$FUZZ/fuzzers.txt" ]] ||
  die "no fuzzers in $BUILD: clang++ or libclang-rt-14-dev is missing, or FLEXIM_BUILD_FUZZERS=OFF (see the CMake output)"
log "building the fuzzers"
nice -n 10 cmake --build "$BUILD" --target fuzzers -j2 >&2

declare -A options=()
available=()
while read -r name rest; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  available+=("$name")
  options[$name]="$rest"
done <"$FUZZ/fuzzers.txt"
((${#targets[@]} > 0)) || targets=("${available[@]}")
for t in "${targets[@]}"; do
  [[ -v "options[$t]" ]] || die "unknown target '$t' (built: ${available[*]})"
done

# ---- run -------------------------------------------------------------------------------------
mkdir -p "$FUZZ/logs" "$FUZZ/artifacts"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
if [[ -n "$runs" ]]; then limit=(-runs="$runs"); else limit=(-max_total_time="$seconds"); fi

rows=()
failed=0
for t in "${targets[@]}"; do
  exe="$FUZZ/fuzz_$t"
  logf="$FUZZ/logs/$t.log"
  mkdir -p "$FUZZ/corpus/$t"
  read -r -a own <<<"${options[$t]}"
  # the seeds copied at configure time, and the committed ones (seeds added since count too)
  inputs=("$FUZZ/corpus/$t" "$FUZZ/seeds/$t")
  [[ -d "$ROOT/tests/fuzz/corpus/$t" ]] && inputs+=("$ROOT/tests/fuzz/corpus/$t")
  log "fuzz_$t: ${limit[*]} (log: ${logf#"$ROOT"/})"
  started=$SECONDS
  set +e
  nice -n 15 "$exe" "${limit[@]}" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 "${own[@]}" \
    -artifact_prefix="$FUZZ/artifacts/$t-" "${inputs[@]}" >"$logf" 2>&1
  rc=$?
  set -e
  elapsed=$((SECONDS - started))
  execs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$logf")
  rate=$(awk '/^stat::average_exec_per_sec:/ { print $2 }' "$logf")
  rss=$(awk '/^stat::peak_rss_mb:/ { print $2 }' "$logf")
  # the last status line: "#N  DONE  cov: C ft: F corp: K/SIZE ..."
  status=$(grep -E '^#[0-9]+' "$logf" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$status")
  if ((rc == 0)); then
    result="ok"
  else
    failed=1
    artifact=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$logf" | tail -n 1)
    result="FAILED (exit $rc${artifact:+, ${artifact#"$ROOT"/}})"
    log "fuzz_$t FAILED; see $logf"
  fi
  rows+=("| $t | ${execs:-?} | ${rate:-?} | ${elapsed} | ${cov:-?} | ${ft:-?} | ${corp:-?} | ${rss:-?} | $result |")
done

table="| target | executions | exec/s | seconds | cov | ft | corpus (files/bytes) | peak RSS [MB] | result |
|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do table+=$'\n'"$r"; done
printf '%s\n' "$table"
[[ -n "$report" ]] && printf '%s\n' "$table" >"$report"
exit "$failed"

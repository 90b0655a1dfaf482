#!/usr/bin/env bash
# Build Flexim and run its test suite.
#
#   ./test.sh                install missing packages, configure Release in build/, build
#                            everything, run all tests except those labelled "slow"
#   ./test.sh --all          also run the slow tests
#   ./test.sh [--all] [--] CTEST_ARGS...   extra arguments go to ctest, e.g. -L core, -R io_csv
#
# The test labelled "installer" builds the .deb with cpack and checks its contents.
# Exit status is non-zero if anything (install, configure, build, any test) fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source scripts/common.sh

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

all=0
while (($# > 0)); do
  case "$1" in
    --all) all=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) break ;; # first unknown argument: it and everything after go to ctest
  esac
done

stage="setup"
# shellcheck disable=SC2317  # called through the EXIT trap
report_failure() {
  local rc=$?
  if ((rc != 0)) && [[ "$stage" != "tests" ]]; then
    printf '\n==> test.sh FAILED during %s (exit %d); no tests were run.\n' "$stage" "$rc" >&2
  fi
}
trap report_failure EXIT

started=$SECONDS
stage="package installation"
flexim_ensure_packages
stage="CMake configure"
flexim_configure
stage="build"
# shellcheck disable=SC2119  # no targets = build everything
flexim_build

stage="tests"
ctest_args=(--test-dir "$FLEXIM_BUILD_DIR" --output-on-failure -j2 --no-tests=error)
((all)) || ctest_args+=(-LE slow)
ctest_args+=("$@")
mkdir -p "$FLEXIM_BUILD_DIR/Testing"
log="$FLEXIM_BUILD_DIR/Testing/test.sh.log"
flexim_log "ctest ${ctest_args[*]}"

set +e
ctest "${ctest_args[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# Repeat ctest's summary as the last lines, so it is easy to find in long CI logs.
summary="$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)"
echo
if ((rc == 0)); then
  echo "==> test.sh passed in $((SECONDS - started)) s"
else
  echo "==> test.sh FAILED (ctest exit $rc) after $((SECONDS - started)) s"
fi
echo "${summary:-ctest printed no summary (see $log)}"
exit "$rc"

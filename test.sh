#!/usr/bin/env bash
# Build Flexim and run its test suite.
#
#   ./test.sh                install missing packages, configure Release in build/, build
#                            everything, run all tests except those labelled "slow"
#   ./test.sh --all          also run the slow tests
#   ./test.sh --sanitize     the same suite built with ASan + UBSan in build-sanitize/ (-O1, no
#                            libFuzzer targets: those are sanitized in the normal build already)
#   ./test.sh [--all] [--sanitize] [--] CTEST_ARGS...   extra arguments go to ctest, e.g. -L core
#
# The test labelled "installer" builds the .deb with cpack and checks its contents.
# Exit status is non-zero if anything (install, configure, build, any test) fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

all=0
sanitize=0
while (($# > 0)); do
  case "$1" in
    --all) all=1; shift ;;
    --sanitize) sanitize=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) break ;; # first unknown argument: it and everything after go to ctest
  esac
done

if ((sanitize)); then
  # its own build directory (not FLEXIM_BUILD_DIR): instrumented objects must never mix with
  # the normal build's
  export FLEXIM_BUILD_DIR="${FLEXIM_SANITIZE_BUILD_DIR:-$PWD/build-sanitize}"
  export FLEXIM_CMAKE_ARGS="-DFLEXIM_SANITIZE=ON -DFLEXIM_BUILD_FUZZERS=OFF ${FLEXIM_CMAKE_ARGS:-}"
fi
# shellcheck source=scripts/common.sh
source scripts/common.sh

# Runtime options of the sanitizer build: stop at the first finding with a full stack trace;
# leaks inside Mesa's software GL are suppressed by the committed list. Options the caller already
# set come last, so they win.
sanitizer_environment() {
  local suppressions="$FLEXIM_ROOT/scripts/sanitizers/lsan.supp"
  # intercept_tls_get_addr=0: g++ 12's runtime mistakes some of glibc's dynamic TLS blocks for an
  # old layout and LeakSanitizer then crashes at exit now and then ("Tracer caught signal 11").
  export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:report_error_type=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
  export LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
  # Without a desktop session, Qt's accessibility bridge asks libdbus to start a session bus,
  # and libdbus leaks 1 KiB when that fails: tell it there is none.
  export DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-disabled:}"
  # Sanitized code runs several times slower: let ctest's limit of 600 s a test stop a slow one,
  # not QtTest's 300 s a function.
  export QTEST_FUNCTION_TIMEOUT="${QTEST_FUNCTION_TIMEOUT:-4800000}"
  flexim_log "ASAN_OPTIONS=$ASAN_OPTIONS"
  flexim_log "UBSAN_OPTIONS=$UBSAN_OPTIONS"
  flexim_log "LSAN_OPTIONS=$LSAN_OPTIONS"
}

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
if ((sanitize)); then sanitizer_environment; fi
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

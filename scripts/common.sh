# shellcheck shell=bash
# Shared helpers for run.sh and test.sh. Source this file; do not execute it.
#
# Environment knobs (all optional):
#   FLEXIM_BUILD_DIR     build directory (default: <repo>/build)
#   FLEXIM_SKIP_INSTALL  1 = never touch system packages (just warn about missing ones)
#   FLEXIM_CMAKE_ARGS    extra arguments for the CMake configure step, e.g. "-DFLEXIM_BUILD_GUI=OFF"

FLEXIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLEXIM_BUILD_DIR="${FLEXIM_BUILD_DIR:-$FLEXIM_ROOT/build}"
FLEXIM_PACKAGES_FILE="$FLEXIM_ROOT/scripts/packages.txt"

flexim_log() { printf '==> %s\n' "$*" >&2; }
flexim_warn() { printf '==> WARNING: %s\n' "$*" >&2; }
flexim_die() {
  printf '==> ERROR: %s\n' "$*" >&2
  exit 1
}

flexim_nproc() { nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2; }

# Prints "<package> <required|optional>" for every entry of scripts/packages.txt.
flexim_package_list() {
  sed -e 's/#.*//' "$FLEXIM_PACKAGES_FILE" |
    awk 'NF { print $1, ($2 == "optional" ? "optional" : "required") }'
}

flexim_pkg_installed() {
  local status
  status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]]
}

# True if apt knows an installable candidate for the package (needs apt lists, i.e. after update).
flexim_pkg_available() {
  local candidate
  candidate="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')"
  [[ -n "$candidate" && "$candidate" != "(none)" ]]
}

# Installs whatever is missing from scripts/packages.txt. Does nothing (and is fast) when all
# packages are present.
flexim_ensure_packages() {
  local pkg kind
  local -a missing=() optional_missing=()

  if ! command -v dpkg-query >/dev/null 2>&1; then
    flexim_warn "dpkg-query not found: not a Debian system. Install the equivalents of" \
      "$(flexim_package_list | awk '{ printf "%s ", $1 }')yourself."
    return 0
  fi

  while read -r pkg kind; do
    flexim_pkg_installed "$pkg" && continue
    if [[ "$kind" == optional ]]; then
      optional_missing+=("$pkg")
    else
      missing+=("$pkg")
    fi
  done < <(flexim_package_list)

  if ((${#missing[@]} + ${#optional_missing[@]} == 0)); then
    flexim_log "system packages: all present"
    return 0
  fi

  local -a wanted=("${missing[@]}" "${optional_missing[@]}")
  if [[ "${FLEXIM_SKIP_INSTALL:-0}" == 1 ]]; then
    flexim_warn "FLEXIM_SKIP_INSTALL=1: not installing missing packages: ${wanted[*]}"
    return 0
  fi

  local -a sudo=()
  if ((EUID != 0)); then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      flexim_die "missing packages: ${wanted[*]}
    Not root and sudo is not available. As root, run:
      apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${wanted[*]}
    (or set FLEXIM_SKIP_INSTALL=1 to try anyway)"
    fi
  fi

  local started=$SECONDS
  flexim_log "installing missing system packages: ${wanted[*]}"
  local -a apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -o Dpkg::Use-Pty=0)
  if ! "${apt[@]}" update; then
    flexim_warn "apt-get update failed; retrying once in 10 s"
    sleep 10
    "${apt[@]}" update || flexim_die "apt-get update failed (network? apt sources?)"
  fi

  for pkg in "${optional_missing[@]}"; do
    if flexim_pkg_available "$pkg"; then
      missing+=("$pkg")
    else
      flexim_log "optional package $pkg is not available here; skipping it"
    fi
  done

  if ((${#missing[@]} > 0)); then
    "${apt[@]}" install -y --no-install-recommends "${missing[@]}" ||
      flexim_die "apt-get install failed for: ${missing[*]}"
    flexim_log "system packages installed in $((SECONDS - started)) s"
  fi
}

# Configures the Release build in $FLEXIM_BUILD_DIR. Always re-runs CMake: it takes a few
# seconds on an existing build directory and picks up test directories added since last time.
flexim_configure() {
  local -a extra=()
  if [[ -n "${FLEXIM_CMAKE_ARGS:-}" ]]; then
    read -r -a extra <<<"$FLEXIM_CMAKE_ARGS"
  fi
  flexim_log "configuring (Release) in ${FLEXIM_BUILD_DIR#"$FLEXIM_ROOT"/}"
  cmake -S "$FLEXIM_ROOT" -B "$FLEXIM_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${extra[@]}"
}

# Builds the given targets (all targets if none given) with every core.
flexim_build() {
  local -a targets=()
  local t
  for t in "$@"; do targets+=(--target "$t"); done
  flexim_log "building${*:+ $*} with $(flexim_nproc) jobs"
  cmake --build "$FLEXIM_BUILD_DIR" -j"$(flexim_nproc)" "${targets[@]}"
}

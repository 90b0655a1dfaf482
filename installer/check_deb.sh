#!/usr/bin/env bash
# CTest "installer_deb": build the Debian package and check what is inside.
# Usage: check_deb.sh CPACK BUILD_DIR GUI(0|1)
set -euo pipefail

cpack=$1
build_dir=$2
gui=$3
out="$build_dir/installer-check"

rm -rf "$out"
mkdir -p "$out"
"$cpack" -G DEB --config "$build_dir/CPackConfig.cmake" -B "$out"

shopt -s nullglob
debs=("$out"/flexim_*.deb)
if ((${#debs[@]} != 1)); then
  echo "FAIL: expected exactly one flexim_*.deb in $out, found ${#debs[@]}" >&2
  exit 1
fi
deb=${debs[0]}

echo "--- dpkg-deb -I $(basename "$deb")"
dpkg-deb -I "$deb"
echo "--- dpkg-deb -c $(basename "$deb")"
contents="$(dpkg-deb -c "$deb")"
echo "$contents"

expected=(./usr/bin/flexim-cli ./usr/share/flexim/examples/)
if [[ "$gui" == 1 ]]; then
  expected+=(./usr/bin/flexim ./usr/share/applications/flexim.desktop
    ./usr/share/icons/hicolor/scalable/apps/flexim.svg)
fi

# dpkg-deb -c prints "perms owner size date time path" (path may be followed by " -> target").
paths="$(awk '{ print $6 }' <<<"$contents")"
status=0
for p in "${expected[@]}"; do
  if grep -qxF -- "$p" <<<"$paths"; then
    echo "ok:      $p"
  else
    echo "MISSING: $p" >&2
    status=1
  fi
done

control="$(dpkg-deb -f "$deb" Package Version Section Maintainer Depends)"
for field in "Package: flexim" "Section: science" "Maintainer: Flexim developers"; do
  if ! grep -qxF -- "$field" <<<"$control"; then
    echo "MISSING control field: $field" >&2
    status=1
  fi
done
if ! grep -q '^Depends: .\+' <<<"$control"; then
  echo "MISSING control field: Depends" >&2
  status=1
fi

if ((status == 0)); then
  echo "PASS: $(basename "$deb") contains everything expected"
fi
exit "$status"

#!/usr/bin/env bash
# Regenerates the screenshots of README.md and docs/ with the GUI's automation flags, under Xvfb.
# Run from the repository root after a build: scripts/make_screenshots.sh [BUILD_DIR]
set -euo pipefail
build="${1:-build}"
flexim="$build/app/flexim"
[[ -x "$flexim" ]] || { echo "no $flexim: build first" >&2; exit 1; }
shot() { xvfb-run -a -s "-screen 0 1280x1024x24" "$flexim" "$@" --quit; }
examples=resources/examples
images=docs/images

# the main window at 1600 x 1000 with a live plot of the run, channels of two units (README)
xvfb-run -a -s "-screen 0 1920x1200x24" "$flexim" "$examples/slider_crank_flexible.json" -geometry 1600x1000+0+0 \
  --plot slider.position.x --plot rod_mid.deflection.y --plot slider.velocity.x \
  --run --deformation-scale 30 --screenshot "$images/main-window.png" --quit
# the deformed flexible rod (README, user guide §8)
shot "$examples/slider_crank_flexible.json" --run --deformation-scale 30 \
  --screenshot "$images/flexible-slider-crank-x30.png"
# contour of one displacement component with the undeformed ghost (user guide §8)
shot "$examples/slider_crank_flexible.json" --run --time 0.06 --contour y --undeformed --deformation-scale 30 \
  --screenshot "$images/flexible-contour-y.png"
# strain contour (user guide §8)
shot "$examples/slider_crank_flexible.json" --run --time 0.0056 --contour strain --deformation-scale 10 \
  --screenshot "$images/flexible-strain.png"
# amplitude spectra of the rod's mid-span deflection and stress (user guide §4, Plots)
xvfb-run -a -s "-screen 0 1920x1200x24" "$flexim" "$examples/slider_crank_flexible.json" -geometry 1600x1000+0+0 \
  --plot rod_mid.deflection.y --plot rod_mid_stress.von_mises.value --plot-x spectrum \
  --run --screenshot "$images/plot-spectrum.png" --quit
# a selected item in the property panel (user guide §2)
shot "$examples/slider_crank_rigid.json" --select "bodies[1]" --screenshot "$images/property-panel.png"

# a mode shape in the mode browser (user guide §8)
shot "$examples/rod/rod_round_c3d10.frb" --mode 9 --screenshot "$images/mode-browser.png"

# the tutorial (docs/tutorial.md): the end-to-end modelling test saves what each step shows
build_tests="$build/tests/ui/ui_modelling"
if [[ -x "$build_tests" ]]; then
  FLEXIM_TUTORIAL_SHOTS="$PWD/$images/tutorial" xvfb-run -a -s "-screen 0 1280x1024x24" \
    "$build_tests" buildTheFlexibleSliderCrankFromNothing
else
  echo "no $build_tests: the tutorial's pictures are not regenerated" >&2
fi

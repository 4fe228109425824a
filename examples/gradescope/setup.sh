#!/usr/bin/env bash
# setup.sh - Gradescope runs this once, as root, when it builds the
# autograder's image (Ubuntu): it builds ballcast from the source in the
# autograder zip (make_autograder.sh puts it in ballcast/) and installs it.
#   AUTOGRADER_ROOT  Gradescope's folder (default /autograder)
#   BALLCAST_SRC     the ballcast source tree (default $AUTOGRADER_ROOT/source/ballcast)
#   PREFIX           where ballcast is installed (default /usr/local: on PATH)
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
src="${BALLCAST_SRC:-$root/source/ballcast}"
prefix="${PREFIX:-/usr/local}"

# What the build needs (gcc, make, pkg-config, cJSON, GMP), installed with
# apt-get when missing (quick and quiet when everything is there).
sh "$src/scripts/install-deps" build
make -C "$src" -j"$(nproc)" all
make -C "$src" install PREFIX="$prefix"
"$prefix/bin/ballcast" --version

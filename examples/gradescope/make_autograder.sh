#!/bin/sh
# make_autograder.sh [OUT.zip] - the zip a teacher uploads to Gradescope:
# setup.sh and run_autograder at its root, course/ (mesh.obj, throws.json,
# grade-options), and ballcast/, the source of the ballcast this is run from
# (git archive HEAD), which setup.sh builds on Gradescope's image.
#   MESH, THROWS   the course's files (default: the samples' room and throws)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$(cd "$(dirname "${1:-autograder.zip}")" && pwd)/$(basename "${1:-autograder.zip}")
mesh="${MESH:-$repo/samples/room.obj}"
throws="${THROWS:-$repo/samples/throws.json}"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$stage/"
mkdir "$stage/course" "$stage/ballcast"
cp "$here/course/grade-options" "$stage/course/"
cp "$mesh" "$stage/course/mesh.obj"
cp "$throws" "$stage/course/throws.json"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$stage/ballcast"
rm -f "$out"
# the files at the zip's root, not a folder holding them (Gradescope looks there)
(cd "$stage" && python3 -m zipfile -c "$out" setup.sh run_autograder course ballcast)
echo "$out"

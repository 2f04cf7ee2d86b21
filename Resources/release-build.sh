#!/bin/sh
# Builds pm as it is measured and shipped: release, the Swift runtime linked
# in (one file that needs no Swift toolchain), and its code laid out so that
# a command maps as little of it as it can:
#   sh Resources/release-build.sh        # prints pm's path
# pm-serve, the web board's server that `pm serve` starts from pm's own
# folder (DESIGN.md §16), is built and linked the same way, in the same
# folder: it is "$(dirname "$path")/pm-serve" beside the path printed.
# Each function gets its own section, lld links, Resources/link-order.sh
# runs the common commands once under callgrind, and the link is redone with
# the functions they ran placed together (a relink only, ~10 s). This cut the
# peak memory of every command by 1.7-2.7 MiB on a 1,000-task board
# (bench/results.md). Needs valgrind; builds in .build-release.
set -eu
cd "$(dirname "$0")/.."
scratch=.build-release
flags="-c release --static-swift-stdlib --scratch-path $scratch -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld"
command -v valgrind >/dev/null || {
  # Said, never done silently: a packager must know what a script installs.
  echo "release-build.sh: valgrind is missing; installing it with apt-get (Resources/link-order.sh runs pm under callgrind to lay out its code). Install it yourself to skip this." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
}
# Both executables, each named: a build of pm alone would ship a pm whose
# `pm serve` finds no server.
# shellcheck disable=SC2086
swift build $flags --product pm >&2
# shellcheck disable=SC2086
swift build $flags --product pm-serve >&2
sh Resources/link-order.sh "$scratch/release/pm" "$scratch/link-order.txt" >&2
# pm-serve is pm with the server linked in: pm's order serves its commands
# too, and the server's functions, not in the list, follow.
for product in pm pm-serve; do
  # shellcheck disable=SC2086
  swift build $flags --product $product -Xlinker "--symbol-ordering-file=$(pwd)/$scratch/link-order.txt" \
    -Xlinker --no-warn-symbol-ordering >&2
  [ -x "$scratch/release/$product" ] || { echo "release-build.sh: $scratch/release/$product was not built" >&2; exit 1; }
done
echo "$(pwd)/$scratch/release/pm"

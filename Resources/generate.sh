#!/bin/sh
# Regenerates the manual pages and completion scripts in Resources/ from the
# command definitions and the tables (a test fails when they are stale):
#   swift build && sh Resources/generate.sh
set -eu
cd "$(dirname "$0")"
pm=${PM:-../.build/debug/pm}
LANG=en_US.UTF-8 "$pm" __generate man > man/man1/pm.1
LANG=fr_FR.UTF-8 "$pm" __generate man > man/fr/man1/pm.1
LANG=ko_KR.UTF-8 "$pm" __generate man > man/ko/man1/pm.1
"$pm" __generate bash > completions/pm.bash
"$pm" __generate zsh > completions/_pm
"$pm" __generate fish > completions/pm.fish

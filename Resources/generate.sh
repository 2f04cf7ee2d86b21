#!/bin/sh
# Regenerates the manual pages and completion scripts in Resources/ from the
# command definitions and the tables (a test fails when they are stale):
#   swift build && sh Resources/generate.sh
set -eu
cd "$(dirname "$0")"
pm=${PM:-../.build/debug/pm}
# A page for every language with a table (a language is a folder of
# Localization/): English's in man/man1, the others' in man/<lang>/man1.
for table in ../Localization/*.lproj; do
  lang=$(basename "$table" .lproj)
  page=man/$lang/man1/pm.1
  [ "$lang" = en ] && page=man/man1/pm.1
  mkdir -p "$(dirname "$page")"
  LANG=$lang.UTF-8 "$pm" __generate man > "$page"
done
"$pm" __generate bash > completions/pm.bash
"$pm" __generate zsh > completions/_pm
"$pm" __generate fish > completions/pm.fish

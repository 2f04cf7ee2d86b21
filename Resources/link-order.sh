#!/bin/sh
# Writes the order in which the linker should lay out pm's functions:
#   sh Resources/link-order.sh BINARY OUT
# BINARY is a release build of pm with its symbols (not stripped). The
# commands people run most (list, add, move, edit, show, history, undo, redo,
# remind, status, sync, --version, --help, in English, French and Korean)
# run under callgrind on a small board; OUT gets the functions of pm they
# executed, one mangled name per line, those that most runs executed first.
#
# Why: a static pm is ~13 MB of code, and the kernel maps a program's code
# 64 KB at a time around each page it touches. Scattered through the binary,
# the ~1 MB a command runs drags ~9 MB into memory; laid out together
# (lld's --symbol-ordering-file, functions in their own sections), it does
# not. A name that is no longer in the binary is skipped by the linker, so a
# stale list costs memory, never correctness. Needs valgrind.
set -eu
bin=$1
out=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind reads the symbol table; the DWARF of a Swift build trips it.
strip --strip-debug -o "$work/pm" "$bin"
pm="$work/pm"
export PM_BOARD="$work/board/board.json" XDG_STATE_HOME="$work/state"
export PM_USER=order TZ=UTC COLUMNS=100 LANG=en_US.UTF-8
mkdir -p "$work/board" "$work/state" "$work/remote"
unset PM_NOW

# A board with some history, made without valgrind.
first=$("$pm" add "first task" 2>/dev/null)
i=0
while [ $i -lt 40 ]; do
  "$pm" add "task $i" --due "2026-12-0$((i % 9 + 1))" >/dev/null
  i=$((i + 1))
done
"$pm" move "$first" doing >/dev/null
"$pm" remote add "$work/remote" >/dev/null
"$pm" sync >/dev/null

n=0
traced() {
  n=$((n + 1))
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$n" \
    "$pm" "$@" >/dev/null 2>&1 || true
}
for lang in en_US.UTF-8 fr_FR.UTF-8 ko_KR.UTF-8; do
  export LANG=$lang
  traced list
  traced add "one more" --due tomorrow
  traced move "$first" done
  traced history --limit 20
  traced undo
done
export LANG=en_US.UTF-8
traced --version
traced --help
traced list --json
traced show "$first"
traced edit "$first" --title renamed
traced start "$first"
traced redo
traced status
traced remind
traced sync
traced move nosuchid doing

# Each run's functions of pm (callgrind names a function run twice
# recursively NAME'2), counted over the runs.
for f in "$work"/cg.*; do
  callgrind_annotate --threshold=100 "$f" 2>/dev/null |
    sed -n -E "s|.*\?\?\?:([^ ]+) \[$work/pm\]\$|\1|p" |
    sed -E "s/'[0-9]+\$//" | sort -u
done | sort | uniq -c | sort -k1,1nr -k2 | awk '{print $2}' > "$out"
echo "link-order: $(wc -l < "$out") functions from $n runs"

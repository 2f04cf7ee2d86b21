#!/bin/sh
# Installs the release files (sh Resources/package.sh) as a user would, in
# fresh minimal Debian roots, and uses pm there (issue 24):
#   1. the .deb with `dpkg -i` into a root with ICU: pm add, pm list in en,
#      fr and ko, man pm in three languages, bash completion, dpkg -r;
#   2. the tarball unpacked into ~/.local of a root with no ICU at all: the
#      invariant mode, with its one line in the reader's language.
# The root (debootstrap --variant=minbase, with libicu72 and man-db) is
# built once from Debian's registry and cached outside the checkout:
#   sh Resources/install-test.sh [DIST]      # PM_ROOT_CACHE=/var/cache/pm-install-test
# Needs root (chroot). Exits non-zero on the first problem.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dist=${1:-$root/dist}
cache=${PM_ROOT_CACHE:-/var/cache/pm-install-test}
suite=bookworm
fail() { echo "install-test: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (chroot)"
command -v debootstrap >/dev/null || {
  # Said, never done silently: whoever runs this must know what it installs.
  echo "install-test: debootstrap is missing; installing it with apt-get (it builds the Debian roots pm is installed in). Install it yourself to skip this." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}
base=$cache/$suite-minbase
if [ ! -d "$base" ]; then
  mkdir -p "$cache"
  building=$cache/.building-$$
  rm -rf "$building"
  debootstrap --variant=minbase --include=libicu72,man-db "$suite" "$building" http://deb.debian.org/debian >/dev/null
  mv "$building" "$base"
fi
deb=$(ls "$dist"/pm_*_amd64.deb)
tarball=$(ls "$dist"/pm-*-linux-x86_64.tar.gz)
version=$(basename "$deb" | sed 's/^pm_\(.*\)_amd64\.deb$/\1/')
work=$(mktemp -d)
cleanup() {
  if mountpoint -q "$work/a/proc" 2>/dev/null; then umount "$work/a/proc"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A command in root $1 as a person at a terminal would run it: a clean
# environment, a fixed clock so that 2026-11-20 is overdue.
in_root() {
  dir=$1
  shift
  chroot "$dir" env -i HOME=/root PATH=/root/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC \
    PM_NOW=2026-11-21T10:00:00Z PM_USER=ji-woo TERM=dumb "$@"
}

# 1. The .deb, with ICU.
cp -a "$base" "$work/a"
cp "$deb" "$work/a/tmp/pm.deb"
in_root "$work/a" dpkg -i /tmp/pm.deb >/dev/null || fail "dpkg -i failed"
[ "$(in_root "$work/a" pm --version)" = "$version" ] || fail "pm --version is not $version"
in_root "$work/a" pm add "Réunion équipe" --due 2026-11-20 >/dev/null 2>&1 || fail "pm add failed"
in_root "$work/a" pm list 2>"$work/err" | grep -q "Nov 20 (overdue)" || fail "pm list is not English"
[ ! -s "$work/err" ] || fail "pm list wrote to stderr with ICU present: $(cat "$work/err")"
in_root "$work/a" env LANG=fr_FR.UTF-8 pm list | grep -q "20 nov. (en retard)" || fail "pm list is not French"
in_root "$work/a" env LANG=ko_KR.UTF-8 pm list | grep -q "11월 20일 마감 지남" || fail "pm list is not Korean"
in_root "$work/a" env MANPAGER=cat man pm 2>/dev/null | grep -q "kanban" || fail "man pm"
in_root "$work/a" env MANPAGER=cat man -L fr pm 2>/dev/null | grep -q "tableau kanban" || fail "man -L fr pm"
in_root "$work/a" env MANPAGER=cat LANG=C.UTF-8 man -L ko pm 2>/dev/null | grep -q "칸반 보드" || fail "man -L ko pm"
# Completion as bash does it: the installed script offers the task's short
# id after `pm move`. Bash's process substitution needs /proc (a running
# system has it); where it cannot be mounted, the script's own call is made.
id=$(in_root "$work/a" pm list --json | sed -n 's/.*"id": "\([0-9a-f]\{4\}\).*/\1/p' | head -1)
if mount -t proc proc "$work/a/proc" 2>/dev/null; then
  offered=$(in_root "$work/a" bash -c '. /usr/share/bash-completion/completions/pm
COMP_WORDS=(pm move ""); COMP_CWORD=2; _pm; printf "%s\n" "${COMPREPLY[@]}"')
  umount "$work/a/proc"
else
  echo "install-test: /proc cannot be mounted here: pm __complete is called as the bash script calls it" >&2
  grep -q "pm __complete --shell bash" "$work/a/usr/share/bash-completion/completions/pm" || fail "the bash script"
  offered=$(in_root "$work/a" pm __complete --shell bash -- move "")
fi
echo "$offered" | grep -q "^$id" || fail "bash completion offered '$offered', not $id"
in_root "$work/a" pm completion bash | cmp -s - "$work/a/usr/share/bash-completion/completions/pm" ||
  fail "pm completion bash is not the installed script"
in_root "$work/a" dpkg -r pm >/dev/null || fail "dpkg -r failed"
[ ! -e "$work/a/usr/bin/pm" ] || fail "dpkg -r left /usr/bin/pm"

# 2. The tarball, in a root with no ICU at all.
cp -a "$base" "$work/b"
in_root "$work/b" dpkg --purge --force-depends libicu72 >/dev/null 2>&1 || fail "could not remove ICU"
[ -z "$(find "$work/b" -name 'libicuuc.so*' | head -1)" ] || fail "ICU is still in the root"
# No /proc either, as in a sandbox: pm knows its arguments without it.
mkdir -p "$work/b/root/.local"
tar -xzf "$tarball" -C "$work/b/root/.local" --strip-components=1
[ "$(in_root "$work/b" pm --version)" = "$version" ] || fail "the tarball's pm --version is not $version"
in_root "$work/b" pm add "Réunion équipe" --due 2026-11-20 >/dev/null 2>&1 || fail "pm add failed without ICU"
in_root "$work/b" env LANG=fr_FR.UTF-8 pm list >"$work/out" 2>"$work/err" || fail "pm list failed without ICU"
grep -q "2026-11-20" "$work/out" || fail "no ISO date without ICU: $(cat "$work/out")"
grep -q "À FAIRE" "$work/out" || fail "not French without ICU"
[ "$(grep -c "La bibliothèque ICU est introuvable" "$work/err")" = 1 ] || fail "the French notice, once: $(cat "$work/err")"
grep -q "libicu72" "$work/err" || fail "the notice names Debian 12's package: $(cat "$work/err")"
# Once per person: the next command says nothing; forgotten, it comes again.
[ -z "$(in_root "$work/b" env LANG=fr_FR.UTF-8 pm list 2>&1 >/dev/null)" ] || fail "the notice came twice"
rm -f "$work/b/root/.local/state/pm/notice-icu-"*
in_root "$work/b" env LANG=ko_KR.UTF-8 pm list 2>&1 >/dev/null | grep -q "ICU 라이브러리를 찾을 수 없어" ||
  fail "the Korean notice"
in_root "$work/b" env MANPAGER=cat man -l /root/.local/share/man/man1/pm.1 2>/dev/null | grep -q "kanban" ||
  fail "the tarball's manual page"
echo "install-test: pm $version installed from the .deb (with ICU) and the tarball (without) in Debian $suite minbase roots"

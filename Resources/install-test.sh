#!/bin/sh
# Installs the release files (sh Resources/package.sh) as a user would, in
# fresh minimal Debian roots, and uses pm there (issue 24):
#   1. the .deb with `dpkg -i` into a root with ICU: pm add, pm list in en,
#      fr and ko, man pm in three languages, bash completion, pm serve in
#      English, dpkg -r;
#   2. the tarball unpacked into ~/.local of a root with no ICU at all: the
#      invariant mode, with its one line in the reader's language, and pm
#      serve in French.
# pm serve finds pm-serve beside pm (each package puts it there), says the
# board's address, that address answers a browser's first request with its
# session cookie, and SIGTERM stops it: a client in the root (bash's
# /dev/tcp: a minimal root has no curl) asks, as a browser would.
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
serving=
cleanup() {
  if [ -n "$serving" ]; then kill -KILL "$serving" 2>/dev/null || true; fi
  for dir in "$work/a" "$work/b"; do
    if mountpoint -q "$dir/proc" 2>/dev/null; then umount "$dir/proc"; fi
  done
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

# pm serve in root $1 (installed from $2), in language $3, as a person
# starts it from a terminal: $4 and $5 are the words around the address in
# the first line it prints, $6 the line it ends with, $7 `proc` to mount
# /proc for the run. pm finds pm-serve through /proc/self/exe, which a
# running system has; without it (a sandbox, a chroot), from how it was
# started: the tarball's root is checked that way.
serve_check() {
  dir=$1
  from=$2
  shift 2
  if [ "${5:-}" = proc ] && ! mountpoint -q "$dir/proc" && ! mount -t proc proc "$dir/proc" 2>/dev/null; then
    echo "install-test: /proc cannot be mounted here: pm serve is checked without it" >&2
  fi
  # Made here: the server's shell opens them after this one reads.
  : >"$work/serve.out"
  : >"$work/serve.err"
  # chroot itself in the background, not in_root's subshell: then $! is the
  # process that becomes pm-serve (chroot, env and pm each exec the next).
  chroot "$dir" env -i HOME=/root PATH=/root/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC \
    PM_USER=ji-woo TERM=dumb LANG="$1" pm serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
  serving=$!
  tries=0
  until [ "$(wc -l <"$work/serve.out")" -ge 1 ]; do
    tries=$((tries + 1))
    # A refusal (exit 70 when pm-serve is not found) is on stderr at once.
    if [ $tries -gt 100 ] || [ -s "$work/serve.err" ]; then
      fail "pm serve gave no address (in 10 s at most): $(cat "$work/serve.out" "$work/serve.err")"
    fi
    sleep 0.1
  done
  line=$(head -1 "$work/serve.out")
  url=$(echo "$line" | grep -o 'http://127\.0\.0\.1:[0-9]*/?token=[0-9a-f]*' || true)
  [ -n "$url" ] || fail "no address in pm serve's first line: $line"
  [ "$line" = "$2$url$3" ] || fail "pm serve's first line: $line"
  port=${url#http://127.0.0.1:}
  port=${port%%/*}
  # The browser's first request; its answer's headers are what matter.
  # shellcheck disable=SC2016 # $1 and $2 are the inner bash's.
  in_root "$dir" bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"
printf "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n" "$2" "$1" >&3
while IFS= read -r -t 5 header <&3; do header=${header%$(printf "\r")}; [ -n "$header" ] || break; echo "$header"; done' \
    bash "$port" "/${url#http://127.0.0.1:*/}" >"$work/response" || fail "no answer from $url"
  head -1 "$work/response" | grep -q "^HTTP/1.1 303 " || fail "$url answered: $(cat "$work/response")"
  grep "^Set-Cookie: pm_$port=[0-9a-f]\{32,\};" "$work/response" | grep "; HttpOnly" | grep -q "; SameSite=Strict" ||
    fail "no HttpOnly, SameSite=Strict session cookie from $url: $(cat "$work/response")"
  # SIGTERM: it stops, says so, and exits 0 (10 s at most, or it is killed).
  kill -TERM "$serving"
  # The watchdog's sleep ends with it: no process outlives the test.
  (
    trap 'kill "$timer"; exit 0' TERM
    sleep 10 &
    timer=$!
    wait "$timer" && kill -KILL "$serving"
  ) >/dev/null 2>&1 &
  watchdog=$!
  status=0
  wait "$serving" || status=$?
  serving=
  kill "$watchdog" 2>/dev/null || true
  [ "$status" = 0 ] || fail "pm serve exited $status on SIGTERM: $(cat "$work/serve.out" "$work/serve.err")"
  [ "$(tail -1 "$work/serve.out")" = "$4" ] || fail "pm serve's last line: $(tail -1 "$work/serve.out")"
  [ ! -s "$work/serve.err" ] || fail "pm serve wrote to stderr: $(cat "$work/serve.err")"
  if mountpoint -q "$dir/proc"; then umount "$dir/proc"; fi
  echo "install-test: pm serve from $from ($1): $line"
  echo "install-test:   GET of that address: $(head -1 "$work/response"), $(grep -o '^Set-Cookie: pm_[0-9]*=' "$work/response")…; SIGTERM: \"$(tail -1 "$work/serve.out")\", exit $status"
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
[ -x "$work/a/usr/bin/pm-serve" ] || fail "no /usr/bin/pm-serve beside /usr/bin/pm"
serve_check "$work/a" "the .deb" C.UTF-8 "The board is at " " (open it in your browser)." "Stopped serving the board." proc
in_root "$work/a" dpkg -r pm >/dev/null || fail "dpkg -r failed"
[ ! -e "$work/a/usr/bin/pm" ] || fail "dpkg -r left /usr/bin/pm"
[ ! -e "$work/a/usr/bin/pm-serve" ] || fail "dpkg -r left /usr/bin/pm-serve"

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
[ -x "$work/b/root/.local/bin/pm-serve" ] || fail "no ~/.local/bin/pm-serve beside ~/.local/bin/pm"
serve_check "$work/b" "the tarball" fr_FR.UTF-8 "Le tableau est à l’adresse " " (ouvrez-la dans votre navigateur)." "Le tableau n’est plus servi."
echo "install-test: pm $version installed from the .deb (with ICU) and the tarball (without) in Debian $suite minbase roots; pm serve ran in both"

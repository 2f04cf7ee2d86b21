#!/bin/sh
# Checks what `sh Resources/package.sh` made in DIST (default dist/): the
# checksums, every file each package must hold where it must hold it, the
# .deb's metadata, and the binaries unpacked from both running alone in
# three languages: pm and, beside it, pm-serve (the web board's server,
# which `pm serve` starts from pm's own folder), each executable, stripped,
# and asking glibc for no newer symbol version than the .deb depends on.
# CI runs it; exits non-zero on the first problem.
#   sh Resources/package-check.sh [DIST]
set -eu
dist=${1:-$(cd "$(dirname "$0")/.." && pwd)/dist}
fail() { echo "package-check: $*" >&2; exit 1; }
cd "$dist"
sha256sum --quiet -c SHA256SUMS || fail "checksums differ"
tarball=$(ls pm-*-linux-x86_64.tar.gz)
deb=$(ls pm_*_amd64.deb)
version=${tarball#pm-}
version=${version%-linux-x86_64.tar.gz}
[ "$deb" = "pm_${version}_amd64.deb" ] || fail "$deb does not have the tarball's version $version"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The tarball: one folder, bin/ and share/ under it.
tar -tzf "$tarball" | sed "s|^pm-$version-linux-x86_64/||" | sort >"$work/tar.txt"
for file in bin/pm bin/pm-serve share/man/man1/pm.1 share/man/fr/man1/pm.1 share/man/ko/man1/pm.1 \
  share/man/de/man1/pm.1 share/man/ja/man1/pm.1 \
  share/bash-completion/completions/pm share/zsh/site-functions/_pm share/fish/vendor_completions.d/pm.fish \
  share/systemd/user/pm-remind.service share/systemd/user/pm-remind.timer \
  share/doc/pm/README.md share/doc/pm/LICENSE share/doc/pm/CHANGELOG.md; do
  grep -qx "$file" "$work/tar.txt" || fail "$tarball lacks $file"
done
tar --numeric-owner -tvzf "$tarball" | awk '{print $1 " " $2 " " $6}' | sed "s| pm-$version-linux-x86_64/| |" >"$work/tar-long.txt"
[ "$(awk '{print $2}' "$work/tar-long.txt" | sort -u)" = "0/0" ] || fail "$tarball has files not owned by root"
for exe in pm pm-serve; do
  grep -qx -- "-rwxr-xr-x 0/0 bin/$exe" "$work/tar-long.txt" || fail "$tarball's bin/$exe is not mode 755"
done
mkdir "$work/local"
tar -xzf "$tarball" -C "$work/local" --strip-components=1
grep -q "^ExecStart=%h/.local/bin/pm remind --notify" "$work/local/share/systemd/user/pm-remind.service" ||
  fail "the tarball's unit does not run ~/.local/bin/pm"

# The .deb: its metadata and where Debian puts each file.
[ "$(dpkg-deb -f "$deb" Package)" = pm ] || fail "not named pm"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "version is not $version"
[ "$(dpkg-deb -f "$deb" Architecture)" = amd64 ] || fail "not amd64"
dpkg-deb -f "$deb" Depends | grep -q "libc6 (>= 2.35)" || fail "does not depend on glibc 2.35"
dpkg-deb -f "$deb" Depends | grep -q libicu && fail "depends on ICU: pm runs without it"
dpkg-deb -f "$deb" Recommends | grep -q "libicu72" || fail "does not recommend ICU"
dpkg-deb -c "$deb" | awk '{print $1 " " $2 " " $6}' >"$work/deb.txt"
for exe in pm pm-serve; do
  grep -qx -- "-rwxr-xr-x root/root ./usr/bin/$exe" "$work/deb.txt" || fail "no /usr/bin/$exe owned by root, mode 755"
done
for file in usr/share/man/man1/pm.1.gz usr/share/man/fr/man1/pm.1.gz usr/share/man/ko/man1/pm.1.gz \
  usr/share/man/de/man1/pm.1.gz usr/share/man/ja/man1/pm.1.gz \
  usr/share/bash-completion/completions/pm usr/share/zsh/vendor-completions/_pm \
  usr/share/fish/vendor_completions.d/pm.fish usr/lib/systemd/user/pm-remind.service \
  usr/lib/systemd/user/pm-remind.timer usr/share/doc/pm/copyright usr/share/doc/pm/changelog.gz; do
  grep -q " ./$file$" "$work/deb.txt" || fail "$deb lacks /$file"
done
dpkg-deb -x "$deb" "$work/root"
grep -q "^ExecStart=/usr/bin/pm remind --notify" "$work/root/usr/lib/systemd/user/pm-remind.service" ||
  fail "the .deb's unit does not run /usr/bin/pm"

# What the .deb declares is what the binaries ask for (objdump -T): the
# glibc floor is the newest GLIBC_ version either asks for, no lower (the
# .deb would install where they cannot run) and no higher (it would refuse
# systems where they can); libstdc++6 (>= N) must give every GLIBCXX_
# version they ask for (GCC 11 gives up to 3.4.29, 12 3.4.30, 13 3.4.31,
# 14 3.4.33).
# newest KIND FILE...: the newest KIND_ version (GLIBC, GLIBCXX) the files ask for.
newest() {
  kind=$1
  shift
  objdump -T "$@" | grep -o "${kind}_[0-9][0-9.]*" | sed "s/^${kind}_//" | sort -uV | tail -1
}
at_most() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -1)" = "$2" ]; }
depends=$(dpkg-deb -f "$deb" Depends)
glibc=$(echo "$depends" | sed -n 's/.*libc6 (>= \([0-9.]*\)).*/\1/p')
for exe in "$work/root/usr/bin/pm" "$work/root/usr/bin/pm-serve"; do
  need=$(newest GLIBC "$exe")
  at_most "$need" "$glibc" || fail "$(basename "$exe") asks for GLIBC_$need, newer than the .deb's libc6 (>= $glibc)"
done
need=$(newest GLIBC "$work/root/usr/bin/pm" "$work/root/usr/bin/pm-serve")
[ "$need" = "$glibc" ] || fail "the .deb depends on libc6 (>= $glibc), but the newest glibc pm and pm-serve ask for is $need"
case $(echo "$depends" | sed -n 's/.*libstdc++6 (>= \([0-9]*\)).*/\1/p') in
  11) glibcxx=3.4.29 ;;
  12) glibcxx=3.4.30 ;;
  13) glibcxx=3.4.31 ;;
  14) glibcxx=3.4.33 ;;
  *) fail "the .deb's libstdc++6 dependency is not one this check knows: $depends" ;;
esac
for exe in "$work/root/usr/bin/pm" "$work/root/usr/bin/pm-serve"; do
  need=$(newest GLIBCXX "$exe")
  at_most "$need" "$glibcxx" || fail "$(basename "$exe") asks for GLIBCXX_$need, newer than the .deb's libstdc++6 gives"
done

# Every shared library the two ask for is one the .deb depends on (or glibc's).
for library in $(objdump -p "$work/root/usr/bin/pm" "$work/root/usr/bin/pm-serve" | sed -n 's/ *NEEDED *//p' | sort -u); do
  case $library in
    libc.so.6 | libm.so.6 | ld-linux-x86-64.so.2 | libdl.so.2 | libpthread.so.0) ;;
    libstdc++.so.6) echo "$depends" | grep -q "libstdc++6" || fail "needs $library, not in Depends" ;;
    libgcc_s.so.1) echo "$depends" | grep -q "libgcc-s1" || fail "needs $library, not in Depends" ;;
    libz.so.1) echo "$depends" | grep -q "zlib1g" || fail "needs $library, not in Depends" ;;
    *) fail "needs $library, which this check does not know" ;;
  esac
done

# pm-serve, from both: pm with the server linked in, of the same version.
for server in "$work/local/bin/pm-serve" "$work/root/usr/bin/pm-serve"; do
  [ "$("$server" --version)" = "$version" ] || fail "$server --version is not $version"
  ldd "$server" | grep -q libicu && fail "$server links ICU"
  file "$server" 2>/dev/null | grep -q "not stripped" && fail "$server is not stripped"
done

# Both binaries: stripped, no ICU linked, the version, and every language.
for pm in "$work/local/bin/pm" "$work/root/usr/bin/pm"; do
  [ "$("$pm" --version)" = "$version" ] || fail "$pm --version is not $version"
  ldd "$pm" | grep -q libicu && fail "$pm links ICU"
  file "$pm" 2>/dev/null | grep -q "not stripped" && fail "$pm is not stripped"
  board="$work/board-$(basename "$(dirname "$(dirname "$pm")")").json"
  PM_BOARD=$board PM_NOW=2026-11-21T10:00:00Z TZ=UTC HOME=$work "$pm" add "Réunion équipe" --due 2026-11-20 >/dev/null 2>&1
  PM_BOARD=$board PM_NOW=2026-11-21T10:00:00Z TZ=UTC HOME=$work LANG=fr_FR.UTF-8 "$pm" list | grep -q "20 nov. (en retard)" ||
    fail "$pm list is not French"
  PM_BOARD=$board PM_NOW=2026-11-21T10:00:00Z TZ=UTC HOME=$work LANG=ko_KR.UTF-8 "$pm" list | grep -q "11월 20일 마감 지남" ||
    fail "$pm list is not Korean"
  "$pm" completion bash | grep -q "pm __complete" || fail "$pm completion bash"
done
echo "package-check: $tarball and $deb hold what they must (pm and pm-serve $version)"

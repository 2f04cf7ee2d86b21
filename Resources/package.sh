#!/bin/sh
# Builds pm's release files from this checkout, into dist/ (or $PM_DIST):
#   pm-VERSION-linux-x86_64.tar.gz   bin/ and share/ to unpack into ~/.local
#                                    (or /usr/local): bin/pm and, beside it,
#                                    bin/pm-serve (the web board's server,
#                                    which `pm serve` starts from pm's own
#                                    folder), both static and stripped; the
#                                    manual pages in three languages, the
#                                    completions, the systemd user units,
#                                    README, LICENSE, CHANGELOG
#   pm_VERSION_amd64.deb             the same where Debian puts them
#                                    (/usr/bin/pm, /usr/bin/pm-serve, ...)
#   SHA256SUMS                       both files' checksums
#   sh Resources/package.sh          # prints the three paths
# VERSION is what `pm --version` of the binary built here says (its one
# source is Sources/PMCLI/Process/Version.swift). PM_BINARY=path skips the
# build; pm-serve is then taken from beside it (as release-build.sh leaves
# it), or from PM_SERVE_BINARY=path.
set -eu
# What is packed has the modes pm gives it, whatever the caller's umask.
umask 022
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
binary=${PM_BINARY:-$(sh Resources/release-build.sh)}
# Without pm-serve beside it, an installed pm refuses `pm serve` (exit 70).
server=${PM_SERVE_BINARY:-$(dirname "$binary")/pm-serve}
[ -x "$server" ] || { echo "package: $server is missing: pm serve needs it beside pm (sh Resources/release-build.sh builds both)" >&2; exit 1; }
version=$("$binary" --version)
case $version in
  [0-9]*.[0-9]*.[0-9]*) ;;
  *) echo "package: '$binary --version' printed '$version', not a version" >&2; exit 1 ;;
esac
# Both from the same checkout: pm-serve parses pm's command line again.
[ "$("$server" --version)" = "$version" ] || { echo "package: $server --version is not $version, pm's" >&2; exit 1; }
dist=${PM_DIST:-$root/dist}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dist"
# Every file as the package installs it: owned by root, dated at the last
# commit (the same files give the same archive).
stamp=$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)

# The files both packages hold, under a prefix; $2 is where the binary is
# for the units, $3 the units' folder under the prefix.
stage() {
  prefix=$1
  bin_path=$2
  units=$prefix/$3
  install -Dm755 "$binary" "$prefix/bin/pm"
  install -Dm755 "$server" "$prefix/bin/pm-serve"
  strip "$prefix/bin/pm" "$prefix/bin/pm-serve"
  install -Dm644 Resources/man/man1/pm.1 "$prefix/share/man/man1/pm.1"
  # Every language's page (Resources/man/<lang>/man1: one per table).
  for page in Resources/man/*/man1/pm.1; do
    lang=$(basename "$(dirname "$(dirname "$page")")")
    install -Dm644 "$page" "$prefix/share/man/$lang/man1/pm.1"
  done
  install -Dm644 Resources/completions/pm.bash "$prefix/share/bash-completion/completions/pm"
  install -Dm644 Resources/completions/pm.fish "$prefix/share/fish/vendor_completions.d/pm.fish"
  mkdir -p "$units"
  sed "s|^ExecStart=.*/pm |ExecStart=$bin_path |" Resources/systemd/pm-remind.service >"$units/pm-remind.service"
  install -m644 Resources/systemd/pm-remind.timer "$units/pm-remind.timer"
  chmod 644 "$units/pm-remind.service"
}

# The tarball: unpacked with --strip-components=1 into a prefix.
name=pm-$version-linux-x86_64
tree=$work/$name
# systemd's user manager reads ~/.local/share/systemd/user (and
# /usr/local/share/systemd/user); the unit runs ~/.local/bin/pm.
stage "$tree" "%h/.local/bin/pm" share/systemd/user
install -Dm644 Resources/completions/_pm "$tree/share/zsh/site-functions/_pm"
for doc in README.md LICENSE CHANGELOG.md; do install -Dm644 "$doc" "$tree/share/doc/pm/$doc"; done
tarball=$dist/$name.tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -C "$work" -cf - "$name" | gzip -n9 >"$tarball"

# The .deb: /usr, compressed pages and changelog, copyright, control.
deb=$work/deb
stage "$deb/usr" "/usr/bin/pm" lib/systemd/user
install -Dm644 Resources/completions/_pm "$deb/usr/share/zsh/vendor-completions/_pm"
find "$deb/usr/share/man" -name pm.1 -exec gzip -n9 {} \;
install -Dm644 README.md "$deb/usr/share/doc/pm/README.md"
gzip -n9 -c CHANGELOG.md >"$deb/usr/share/doc/pm/changelog.gz"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: pm"
  echo
  echo "Files: *"
  echo "Copyright: the pm authors"
  echo "License: Apache-2.0"
  echo " On Debian systems, the full text of the Apache License 2.0 is in"
  echo " /usr/share/common-licenses/Apache-2.0."
} >"$deb/usr/share/doc/pm/copyright"
chmod 644 "$deb/usr/share/doc/pm/copyright"
size=$(du -sk "$deb/usr" | cut -f1)
mkdir -p "$deb/DEBIAN"
# glibc 2.35 and GLIBCXX_3.4.29 are the newest symbol versions either
# binary asks for (objdump -T pm pm-serve: pm-serve adds sockets, epoll and
# pthread_cond_*, none newer than 2.34; Resources/package-check.sh checks
# both against this line); ICU of any version is loaded at run time, and pm
# works without it (the invariant mode), so it is recommended, not required.
# pm-serve gzips its answers with the system's zlib (libz.so.1).
cat >"$deb/DEBIAN/control" <<CONTROL
Package: pm
Version: $version
Architecture: amd64
Maintainer: pm authors <pm@invalid>
Installed-Size: $size
Depends: libc6 (>= 2.35), libstdc++6 (>= 12), libgcc-s1, zlib1g
Recommends: libicu76 | libicu74 | libicu72 | libicu71 | libicu70 | libicu67 | libicu63
Section: utils
Priority: optional
Homepage: https://pm.invalid/
Description: kanban board for the terminal, shared by a multilingual team
 Three columns (TODO, DOING, DONE), tasks with a title, a body and a
 deadline, history and undo, an interactive board, and a board each person
 keeps on their own machine, offline, synced through git or a shared folder
 without losing a change; pm serve shows the same board in a browser
 (pm-serve, its server). Every word in English, French or Korean, as the
 reader's LANG says.
CONTROL
find "$deb" -exec touch -h -d "@$stamp" {} +
package=$dist/pm_${version}_amd64.deb
SOURCE_DATE_EPOCH=$stamp dpkg-deb --root-owner-group -Zxz --build "$deb" "$package" >/dev/null

(cd "$dist" && sha256sum "$name.tar.gz" "pm_${version}_amd64.deb" >SHA256SUMS)
echo "$tarball"
echo "$package"
echo "$dist/SHA256SUMS"

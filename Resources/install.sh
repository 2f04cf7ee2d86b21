#!/bin/sh
# Installs pm, its manual pages (en, fr, ko) and its bash, zsh and fish
# completions under PREFIX (default ~/.local; PREFIX=/usr/local for everyone).
# Run after `swift build -c release --static-swift-stdlib`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-$HOME/.local}
binary=${PM_BINARY:-$here/../.build/release/pm}
install -Dm755 "$binary" "$prefix/bin/pm"
install -Dm644 "$here/man/man1/pm.1" "$prefix/share/man/man1/pm.1"
for lang in fr ko; do
  install -Dm644 "$here/man/$lang/man1/pm.1" "$prefix/share/man/$lang/man1/pm.1"
done
install -Dm644 "$here/completions/pm.bash" "$prefix/share/bash-completion/completions/pm"
install -Dm644 "$here/completions/_pm" "$prefix/share/zsh/site-functions/_pm"
install -Dm644 "$here/completions/pm.fish" "$prefix/share/fish/vendor_completions.d/pm.fish"
echo "pm: installed in $prefix (man pm, man -L fr pm, man -L ko pm; completions for bash, zsh, fish)"

#!/bin/sh
# Installs pm and, beside it, pm-serve (the web board's server, which `pm
# serve` starts from pm's own folder), pm's manual pages (en, fr, ko) and
# its bash, zsh and fish completions under PREFIX (default ~/.local;
# PREFIX=/usr/local for everyone),
# and the systemd user timer that runs `pm remind --notify` (enable it with
# `systemctl --user enable --now pm-remind.timer`).
# Run after `swift build -c release --static-swift-stdlib`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-$HOME/.local}
binary=${PM_BINARY:-$here/../.build/release/pm}
# swift build makes both products in one folder; without pm-serve beside
# it, the installed pm refuses `pm serve`.
server=${PM_SERVE_BINARY:-$(dirname "$binary")/pm-serve}
[ -x "$server" ] || { echo "pm: $server is missing: pm serve needs it beside pm (swift build makes it)" >&2; exit 1; }
install -Dm755 "$binary" "$prefix/bin/pm"
install -Dm755 "$server" "$prefix/bin/pm-serve"
# Symbols are for debugging the build, not for running it (32 MB -> 17 MB).
if command -v strip >/dev/null 2>&1; then strip "$prefix/bin/pm" "$prefix/bin/pm-serve"; fi
install -Dm644 "$here/man/man1/pm.1" "$prefix/share/man/man1/pm.1"
for page in "$here"/man/*/man1/pm.1; do
  lang=$(basename "$(dirname "$(dirname "$page")")")
  install -Dm644 "$page" "$prefix/share/man/$lang/man1/pm.1"
done
install -Dm644 "$here/completions/pm.bash" "$prefix/share/bash-completion/completions/pm"
install -Dm644 "$here/completions/_pm" "$prefix/share/zsh/site-functions/_pm"
install -Dm644 "$here/completions/pm.fish" "$prefix/share/fish/vendor_completions.d/pm.fish"
# The user units, with this prefix's pm in ExecStart (systemd's user unit
# folder: ~/.config/systemd/user, or the system-wide one for /usr/local).
if [ -n "${SYSTEMD_USER_DIR:-}" ]; then
  units=$SYSTEMD_USER_DIR
elif [ "$prefix" = "$HOME/.local" ]; then
  units=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
else
  units=$prefix/lib/systemd/user
fi
mkdir -p "$units"
sed "s|^ExecStart=.*/pm |ExecStart=$prefix/bin/pm |" "$here/systemd/pm-remind.service" >"$units/pm-remind.service"
chmod 644 "$units/pm-remind.service"
install -Dm644 "$here/systemd/pm-remind.timer" "$units/pm-remind.timer"
echo "pm: installed in $prefix (pm and pm-serve; man pm, man -L fr pm, man -L ko pm; completions for bash, zsh, fish; $units/pm-remind.timer)"

#!/usr/bin/env bash
# Installs the built .deb on a fresh, minimal Debian 12 and starts the app from its desktop entry, as
# a new user would: a fresh root (packaging/fresh-root.sh: debootstrap minbase, shared with CI),
# `apt-get install ./roofline-explorer_*.deb`, roofline-cli, then `gio launch` of the installed
# .desktop file under Xvfb, a screen grab, and the app and Xvfb stopped by their process ids.
# Needs root, debootstrap and a reachable Debian mirror; not part of CI (minutes, 190 packages).
# usage: packaging/try-clean-install.sh [DEB] [OUT_PNG]   (default build/clean-install/menu-launch.png)
set -euo pipefail
cd "$(dirname "$0")/.."
source packaging/fresh-root.sh
deb=$(realpath "${1:-$(ls build/release/roofline-explorer_*_amd64.deb)}")
out=$(realpath -m "${2:-build/clean-install/menu-launch.png}")
root=${ROOFLINE_FRESH_ROOT:-/var/tmp/roofline-explorer-clean-install}
trap 'fresh_root_remove "$root" || true' EXIT
trap 'exit 130' INT TERM HUP

fresh_root_create "$root"
cp "$deb" "$root/root/"
fresh_root_exec "$root" '
    cd /root
    set -x
    apt-get update -qq
    apt-get install -y -qq ./roofline-explorer_*_amd64.deb > /root/apt-install.log
    grep -c "^Setting up" /root/apt-install.log
    roofline-cli --version
    roofline-cli analyze | tail -4
    ls /usr/share/applications/*.desktop /usr/share/icons/hicolor/scalable/apps/roofline-explorer.svg \
       /usr/share/metainfo/*.metainfo.xml /usr/share/man/man1/roofline-*.1.gz
    apt-get install -y -qq --no-install-recommends xvfb xauth libglib2.0-bin x11-apps netpbm > /root/apt-x.log
    Xvfb :7 -screen 0 1600x1000x24 -nolisten tcp > /root/xvfb.log 2>&1 & xvfb=$!
    sleep 2
    DISPLAY=:7 gio launch /usr/share/applications/io.github.roofline_explorer.RooflineExplorer.desktop
    sleep 10
    # This PID namespace holds only what this script started; the app is the one running its binary.
    app=""
    for d in /proc/[0-9]*; do
        if [ "$(readlink $d/exe 2>/dev/null)" = /usr/bin/roofline-explorer ]; then app=${d#/proc/}; fi
    done
    [ -n "$app" ] || { echo "roofline-explorer is not running 10 s after gio launch"; kill $xvfb; exit 1; }
    DISPLAY=:7 xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > /tmp/menu-launch.png
    kill $app $xvfb
'
mkdir -p "$(dirname "$out")"
cp "$root/tmp/menu-launch.png" "$out"
echo "look at $out"

#!/usr/bin/env bash
# Installs the built .deb on a fresh, minimal Debian 12 and starts the app from its desktop entry, as
# a new user would: debootstrap (minbase) a chroot, `apt-get install ./roofline-explorer_*.deb`, run
# roofline-cli, then `gio launch` the installed .desktop file under Xvfb and grab the screen.
# Needs root, debootstrap and network access to a Debian mirror; not part of CI (minutes, network).
# usage: packaging/try-clean-install.sh [DEB] [CHROOT_DIR]   -> CHROOT_DIR/tmp/menu-launch.png
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "${1:-$(ls build/release/roofline-explorer_*_amd64.deb)}")
root=${2:-/tmp/roofline-clean-bookworm}
[ -d "$root/usr" ] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
cp "$deb" "$root/root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
trap 'pkill -f Xvfb || true; umount "$root/proc" "$root/dev" || true' EXIT
chroot "$root" /bin/bash -euxc '
    export DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
    cd /root
    apt-get update -qq
    apt-get install -y -qq ./roofline-explorer_*_amd64.deb > /root/apt-install.log
    roofline-cli --version
    roofline-cli analyze | tail -4
    ls /usr/share/applications/*.desktop /usr/share/icons/hicolor/scalable/apps/roofline-explorer.svg \
       /usr/share/metainfo/*.metainfo.xml /usr/share/man/man1/roofline-*.1.gz
    apt-get install -y -qq --no-install-recommends xvfb xauth libglib2.0-bin x11-apps netpbm procps > /root/apt-x.log
    xvfb-run -s "-screen 0 1600x1000x24" sh -c "
        gio launch /usr/share/applications/io.github.roofline_explorer.RooflineExplorer.desktop
        sleep 10
        pgrep -a roofline-explor
        xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > /tmp/menu-launch.png
        pkill roofline-explor"'
echo "look at $root/tmp/menu-launch.png"

#!/usr/bin/env bash
# Fresh minimal Debian 12 roots, shared by .ci/run (the README's commands on a new machine) and
# packaging/try-clean-install.sh (the .deb on a new machine). Source it; it defines:
#
#   fresh_root_mirror            the Debian mirror of this machine's own apt sources (or
#                                $ROOFLINE_DEBIAN_MIRROR); fails with a reason when there is none
#   fresh_root_check_mirror M    fails, saying why, when mirror M cannot be reached
#   fresh_root_create DIR        DIR becomes a fresh copy of a pristine `debootstrap --variant=minbase
#                                bookworm` base. The base is cached under $ROOFLINE_ROOT_CACHE
#                                (default /var/cache/roofline-explorer/roots), made once per mirror,
#                                atomically, and never used itself: nothing is ever installed into it
#   fresh_root_exec DIR SCRIPT   runs the bash SCRIPT as root inside DIR, with /proc and /dev mounted;
#                                with $ROOFLINE_ROOT_CCACHE set to a host folder, that folder is also
#                                the root's ccache (/root/.cache/ccache), kept between runs
#   fresh_root_remove DIR        deletes DIR (refuses while anything is mounted below it)
#
# Every fresh_root_exec runs in its own mount and PID namespace (unshare): the mounts exist only
# there and vanish with it, so no exit path (error, Ctrl+C, kill) leaves /proc or /dev mounted in
# the root or a bind mount that a later `rm -rf` could walk into; and when the script ends, the
# kernel ends every process it left behind. Scripts still stop what they start by process id.
# Needs root, debootstrap and unshare (util-linux).

fresh_root_cache=${ROOFLINE_ROOT_CACHE:-/var/cache/roofline-explorer/roots}

fresh_root_die() {
    echo "fresh-root: $*" >&2
    return 1
}

# The first Debian (not security) bookworm mirror in the machine's apt sources: deb822 .sources files
# first, then one-line sources.list entries.
fresh_root_mirror() {
    if [ -n "${ROOFLINE_DEBIAN_MIRROR:-}" ]; then
        echo "$ROOFLINE_DEBIAN_MIRROR"
        return 0
    fi
    local m=""
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # A stanza is a paragraph; take the URIs of the first whose Suites name bookworm itself.
        m=$(awk 'BEGIN { RS = ""; FS = "\n" }
            {
                uris = ""; suites = ""; enabled = 1
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
                    if ($i ~ /^Suites:/) { suites = " " $i " "; sub(/^ Suites:/, "", suites) }
                    if ($i ~ /^Enabled:[ \t]*no/) enabled = 0
                }
                if (enabled && uris != "" && suites ~ /[ \t]bookworm[ \t]/ && uris !~ /security/) {
                    split(uris, u, /[ \t]+/); print u[1]; exit
                }
            }' "$f")
        [ -n "$m" ] && break
    done
    if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
        m=$(awk '$1 == "deb" && $0 !~ /security/ {
                 for (i = 2; i <= NF; i++) if ($i !~ /^\[/) { if ($(i + 1) == "bookworm") { print $i; exit } else break }
             }' /etc/apt/sources.list)
    fi
    [ -n "$m" ] || { fresh_root_die "no Debian bookworm mirror in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources (set ROOFLINE_DEBIAN_MIRROR)"; return 1; }
    echo "${m%/}"
}

# apt's own downloader, so that the machine's apt proxy settings apply as they will in the root.
fresh_root_check_mirror() {
    local mirror=$1 tmp
    tmp=$(mktemp)
    if ! /usr/lib/apt/apt-helper download-file "$mirror/dists/bookworm/Release" "$tmp" > "$tmp.log" 2>&1; then
        sed 's/^/  /' "$tmp.log" >&2
        rm -f "$tmp" "$tmp.log"
        fresh_root_die "the Debian mirror $mirror cannot be reached (no $mirror/dists/bookworm/Release): a fresh Debian 12 root cannot be made or filled without it"
        return 1
    fi
    rm -f "$tmp" "$tmp.log"
}

fresh_root_base() {
    local mirror=$1 key
    key=$(printf '%s' "$mirror" | tr -c 'A-Za-z0-9.-' '_')
    echo "$fresh_root_cache/bookworm-minbase-$key"
}

fresh_root_create() {
    local dir=$1 mirror base
    [ "$(id -u)" -eq 0 ] || { fresh_root_die "a fresh root needs root (chroot, mount)"; return 1; }
    command -v debootstrap > /dev/null || { fresh_root_die "debootstrap is missing: apt-get install debootstrap"; return 1; }
    command -v unshare > /dev/null || { fresh_root_die "unshare (util-linux) is missing"; return 1; }
    mirror=$(fresh_root_mirror) || return 1
    fresh_root_check_mirror "$mirror" || return 1
    base=$(fresh_root_base "$mirror")
    if [ ! -f "$base/.roofline-pristine" ]; then
        echo "fresh-root: no cached base; debootstrap --variant=minbase bookworm from $mirror"
        mkdir -p "$fresh_root_cache"
        local tmp="$base.partial.$$"
        rm -rf "$tmp"
        if ! debootstrap --variant=minbase bookworm "$tmp" "$mirror" > "$tmp.log" 2>&1; then
            tail -n 20 "$tmp.log" >&2
            rm -rf "$tmp"
            fresh_root_die "debootstrap from $mirror failed (log above)"
            return 1
        fi
        rm -f "$tmp.log"
        date -u +%FT%TZ > "$tmp/.roofline-pristine"
        rm -rf "$base"
        mv "$tmp" "$base"
    fi
    echo "fresh-root: $dir from the pristine base of $(cat "$base/.roofline-pristine") ($mirror)"
    fresh_root_remove "$dir" || return 1
    mkdir -p "$(dirname "$dir")"
    cp -a "$base" "$dir"
    rm -f "$dir/.roofline-pristine"
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
}

fresh_root_exec() {
    local dir=$1 script=$2
    [ -x "$dir/bin/bash" ] || { fresh_root_die "$dir is not a root made by fresh_root_create"; return 1; }
    # The outer bash is PID 1 of the new namespace: when it returns, every process left there ends.
    unshare --mount --pid --fork --propagation private -- bash -c '
        set -e
        mount -t proc proc "$1/proc"
        mount --rbind /dev "$1/dev"
        if [ -n "$3" ]; then
            mkdir -p "$3" "$1/root/.cache/ccache"
            mount --bind "$3" "$1/root/.cache/ccache"
        fi
        chroot "$1" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive CI="${CI:-}" /bin/bash -euo pipefail -c "$2"
    ' fresh-root "$dir" "$script" "${ROOFLINE_ROOT_CCACHE:-}"
}

fresh_root_remove() {
    local dir=$1
    [ -n "$dir" ] && [ "$dir" != "/" ] || { fresh_root_die "refusing to remove '$dir'"; return 1; }
    [ -e "$dir" ] || return 0
    if awk -v d="$(realpath "$dir")/" 'index($5 "/", d) == 1 { found = 1 } END { exit !found }' /proc/self/mountinfo; then
        fresh_root_die "something is still mounted below $dir; not removing it"
        return 1
    fi
    rm -rf --one-file-system "$dir"
}

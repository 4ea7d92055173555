#!/usr/bin/env bash
# Builds the release preset, makes the .deb and validates it: desktop entry, AppStream metainfo,
# lintian. Waivers: AppStream's pedantic note on upper-case letters in the reverse-DNS id
# (io.github.roofline_explorer.RooflineExplorer follows the common org.kde.Foo convention).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release > /dev/null
cmake --build --preset release
(cd build/release && cpack -G DEB)
deb=$(ls build/release/roofline-explorer_*_amd64.deb)
desktop-file-validate packaging/io.github.roofline_explorer.RooflineExplorer.desktop
appstreamcli validate --no-net packaging/io.github.roofline_explorer.RooflineExplorer.metainfo.xml
lintian --fail-on error,warning "$deb"
echo "package ok: $deb"

#!/usr/bin/env bash
# Installs what Roofline Explorer needs to build, test and run on Debian 12 (bookworm).
# Only missing packages are installed; safe to run again. Uses sudo when not run as root.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libgl-dev libxkbcommon-dev
    libqt6opengl6-dev     # Qt6Charts' CMake config needs Qt6OpenGL's, only a Recommends of qt6-base-dev
    nlohmann-json3-dev
    libonnx-dev libprotobuf-dev   # ONNX models (libonnx-dev does not pull libprotobuf-dev)
    libonnx-testdata      # ONNX's own conformance models, opened by tst_onnx_conformance
    libdnnl-dev ocl-icd-opencl-dev   # oneDNN 2.6 runs the network's rows on this CPU; its CMake config asks for OpenCL
    libbenchmark-dev      # engine benchmarks (target 'bench')
    xvfb xauth            # headless GUI tests and screenshots
    fonts-dejavu-core     # text in the window, the exports and the screenshot tests
    python3               # tests/gpu/validate_on_gpu.py --self-test (a ctest test)
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages already installed"
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 60) on a copy of its committed seed corpus.
# usage: tests/fuzz/run-fuzzers.sh BUILD_DIR [SECONDS]
set -euo pipefail
build=${1:?usage: run-fuzzers.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for target in device session figure options network measurements onnx calibration; do
    mkdir -p "$work/$target"
    cp "$here/corpus/$target/"* "$work/$target/"
    echo "fuzz_$target: ${seconds}s"
    if ! "$build/bin/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/" "$work/$target" > "$work/$target.log" 2>&1; then
        echo "fuzz_$target FAILED:"; tail -40 "$work/$target.log"; status=1
    else
        grep -E "stat::number_of_executed_units|Done" "$work/$target.log" | tail -2
    fi
done
exit $status

#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 60) on a copy of its committed seed corpus, JOBS
# targets at a time (default: one per core; each libFuzzer run is single-threaded, so on CI's two
# cores this halves the stage's wall time without shortening any target's run).
# usage: tests/fuzz/run-fuzzers.sh BUILD_DIR [SECONDS] [JOBS]
set -euo pipefail
build=${1:?usage: run-fuzzers.sh BUILD_DIR [SECONDS] [JOBS]}
seconds=${2:-60}
jobs=${3:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
artifacts="$build/fuzz-artifacts" # kept: the input that crashed, to replay with fuzz_TARGET FILE
targets=(device session figure options network measurements onnx calibration llm)

fuzz_one() {
    local target=$1
    mkdir -p "$work/$target" "$artifacts"
    cp "$here/corpus/$target/"* "$work/$target/"
    if "$build/bin/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$target-" "$work/$target" > "$work/$target.log" 2>&1; then
        touch "$work/$target.ok"
    fi
}

echo "fuzzing ${#targets[@]} targets, ${seconds}s each, $jobs at a time"
running=0
for target in "${targets[@]}"; do
    fuzz_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait || true

status=0
for target in "${targets[@]}"; do
    if [ -e "$work/$target.ok" ]; then
        echo "fuzz_$target (${seconds}s): $(grep -E "stat::number_of_executed_units" "$work/$target.log" | tail -1 | awk '{print $2}') runs, no finding"
    else
        echo "fuzz_$target FAILED:"; tail -40 "$work/$target.log"
        ls "$artifacts/$target-"* 2>/dev/null | sed 's/^/  input that failed: /'
        status=1
    fi
done
exit $status

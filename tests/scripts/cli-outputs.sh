#!/bin/bash
# Runs the README's and docs/'s roofline-cli examples (and a few more that cover every subcommand) with the
# given binary and stores what each prints (stdout, stderr, exit status) and the files it writes,
# one file per command, under OUTDIR. Two runs' folders compared with `diff -r` show whether a
# change altered any output: how issue 17's layout change was checked to be byte-identical.
#   tests/scripts/cli-outputs.sh BUILD/bin/roofline-cli OUTDIR
set -u
cli=$(realpath "$1")
out=$(realpath -m "$2")
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
export ROOFLINE_DEVICES_DIR="$src/devices" HOME="$work/home" XDG_DATA_HOME="$work/home/data" LC_ALL=C
mkdir -p "$HOME"

# The README's and docs/'s example lines (continuations joined, trailing comments and redirections dropped);
# lines with placeholders ([...], A|B) are usage synopses, not examples.
mapfile -t readme < <(awk '/^```sh/{on=1;next} /^```/{on=0} on' README.md docs/*.md \
    | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | grep '^roofline-cli ' \
    | sed -e 's/ *#.*$//' -e 's/ *>.*$//' | grep -v '\[\||' | grep -v 'model\.onnx')
extra=(
    "roofline-cli devices"
    "roofline-cli devices --format json"
    "roofline-cli networks"
    "roofline-cli networks --format json"
    "roofline-cli networks --format-help"
    "roofline-cli networks --model tests/data/onnx/resnet50.onnx"
    "roofline-cli analyze --model tests/data/onnx/resnet50.onnx --batch 8 --image 320 --device all --format json"
    "roofline-cli analyze --model tests/data/onnx/video3d.onnx --format csv"
    "roofline-cli analyze --format markdown --device t4"
    "roofline-cli analyze --format latex --mode training --device h100-sxm"
    "roofline-cli analyze --device all --format csv --traffic tiled --algorithm auto"
    "roofline-cli tune --model resnet18 --device t4 --batch 1..64 --format json"
    "roofline-cli tune --objective edp --device a100-sxm-80gb --gpus 1..8 --format csv"
    "roofline-cli compare tests/data/measurements/unet-plain.csv --image 128 --padding same --batch 16 --device rtx-2060-super"
    "roofline-cli export --svg fig.svg --width-in 5 --device t4 --device h100-sxm"
    "roofline-cli reproduce fig.pdf.json --output again.svg"
    "roofline-cli analyze --image 7"
    "roofline-cli analyze --model nosuch"
    "roofline-cli frobnicate"
    "roofline-cli --help"
    "roofline-cli analyze --help"
    "roofline-cli measure --help"
)
i=0
for cmd in "${readme[@]}" "${extra[@]}"; do
    i=$((i + 1))
    f=$(printf '%s/%02d.txt' "$out" "$i")
    rm -rf "$work/run" && mkdir -p "$work/run" && cp -f "$work"/fig.pdf.json "$work/run/" 2>/dev/null
    read -r -a argv <<<"${cmd#roofline-cli }"
    argv=("${argv[@]/#tests\//$src/tests/}")
    argv=("${argv[@]/#resources\//$src/resources/}")
    { echo "\$ $cmd"; (cd "$work/run" && "$cli" "${argv[@]}" 2>"$work/err"); echo "[exit $?]"; echo "[stderr]"; cat "$work/err"; } >"$f"
    for w in $(cd "$work/run" && ls); do
        [ "$w" = fig.pdf.json ] && [ -e "$work/fig.pdf.json" ] && cmp -s "$work/run/$w" "$work/fig.pdf.json" && continue
        case "$w" in
        *.pdf) echo "[file $w: $(wc -c <"$work/run/$w") bytes, PDF]" >>"$f" ;; # PDFs carry their creation time
        *) echo "[file $w: sha256 $(sha256sum <"$work/run/$w" | cut -c1-64)]" >>"$f" ;;
        esac
    done
    sed -i -e "s#$work#WORK#g" -e "s#$src#SRC#g" "$f"
    cp -f "$work/run/fig.pdf.json" "$work/" 2>/dev/null
done
echo "$i commands; outputs in $out"

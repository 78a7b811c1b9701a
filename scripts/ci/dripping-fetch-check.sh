#!/usr/bin/env bash
# Fetches that cannot stall the service (scripts/ci/dripping-fetch-check.py): 16 dripping or hanging status servers on
# loopback, fetched at once by a release build while /healthz is probed.
#   scripts/ci/dripping-fetch-check.sh [path/to/release/verifierd]
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
BIN=${1:-.build/release/verifierd}
WORK=$(mktemp -d)
trap 'stop_server; rm -rf "$WORK"' EXIT
# shellcheck source=scripts/lib/serve-lib.sh
source scripts/lib/serve-lib.sh
mkdir -p "$WORK/trust"
cp TestVectors/pki/iaca-p256.pem "$WORK/trust/"
python3 scripts/ci/dripping-fetch-check.py serve-config "$WORK/config.json" "$WORK"
start_server "$WORK/log" "$WORK/config.json"
python3 scripts/ci/dripping-fetch-check.py run "http://127.0.0.1:$PORT" "$WORK"

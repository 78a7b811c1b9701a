#!/usr/bin/env bash
# System calls per keep-alive request, counted (not timed): the release service on the demo configuration answers
# N requests on one kept-alive connection while strace counts every system call of every thread; the count divided
# by N is compared with the budgets in scripts/budget/cost-budget.json: every call ("syscallsPerAppleVerify",
# "syscallsPerHealthz", with room for futex calls, whose number depends on scheduling) and every call but futex
# ("syscallsWithoutFutexPer…", which the code alone decides: a tight budget).
#   scripts/budget/syscall-budget.sh [path/to/release/verifierd] [--check]     (needs strace: apt-get install -y strace)
set -euo pipefail
# -h/--help prints the text above; --check as described; any other option is refused before anything is started.
CHECK=0
POSITIONAL=()
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --check) CHECK=1 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) POSITIONAL+=("$arg") ;;
    esac
done
[ ${#POSITIONAL[@]} -le 1 ] || { echo "$(basename "$0"): too many arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/../.."
BIN=${POSITIONAL[0]:-.build/release/verifierd}
command -v strace >/dev/null 2>&1 || { echo "strace not found: apt-get install -y strace" >&2; exit 1; }
N=${N:-2000}
WORK=$(mktemp -d)
trap '[ -n "${STRACE:-}" ] && kill "$STRACE" 2>/dev/null; stop_server; rm -rf "$WORK"' EXIT
# shellcheck source=scripts/lib/serve-lib.sh
source scripts/lib/serve-lib.sh
python3 - "$WORK/config.json" <<'PY'
import json, os, sys
# The demo configuration, its relative paths made absolute (they are relative to config/), the trust directory in
# the work folder.
config = json.load(open("config/verifierd.json"))
def absolute(value):
    if isinstance(value, dict):
        return {k: absolute(v) for k, v in value.items()}
    if isinstance(value, list):
        return [absolute(v) for v in value]
    if isinstance(value, str) and os.path.exists(os.path.join("config", value)):
        return os.path.abspath(os.path.join("config", value))
    return value
config = absolute(config)
config["trust"]["iacaDirectory"] = os.path.join(os.path.dirname(sys.argv[1]), "trust")
json.dump(config, open(sys.argv[1], "w"))
PY
start_server "$WORK/log" "$WORK/config.json"

measure() {  # measure NAME METHOD PATH [BODY]: prints system calls per request
    local name=$1 method=$2 path=$3 body=${4:-}
    # Warm up (first requests create threads and caches), then count N requests on one connection.
    python3 scripts/budget/keepalive-client.py "$PORT" "$method" "$path" "$body" 200 > /dev/null
    strace -f -c -o "$WORK/$name.strace" -p "$PID" 2>/dev/null &
    STRACE=$!
    sleep 1
    python3 scripts/budget/keepalive-client.py "$PORT" "$method" "$path" "$body" "$N" > "$WORK/$name.client"
    sleep 0.5
    kill -INT "$STRACE"; wait "$STRACE" 2>/dev/null || true
    STRACE=""
    local calls
    # The "total" line: % time, seconds, usecs/call, calls, [errors,] total. Futex calls depend on how threads meet
    # (scheduling), the rest on what the code does: both are printed, "all/without futex".
    local calls futex
    calls=$(awk '$NF == "total" {print $4}' "$WORK/$name.strace")
    futex=$(awk '$NF == "futex" {print $4}' "$WORK/$name.strace")
    python3 -c "import sys; n = int(sys.argv[3]); print(f'{int(sys.argv[1]) / n:.2f}/{(int(sys.argv[1]) - int(sys.argv[2] or 0)) / n:.2f}')" \
        "$calls" "${futex:-0}" "$N"
}

apple=$(measure apple POST /v1/apple/verify TestVectors/demo/verify-request.json)
health=$(measure health GET /healthz)
echo "system calls per keep-alive request (N=$N, strace -f; all/without futex): /v1/apple/verify $apple, /healthz $health"
for name in apple health; do echo "$name:"; grep -E '^ *[0-9]' "$WORK/$name.strace" | awk '{printf "  %s %s\n", $NF, $4}'; done
if [ "$CHECK" = 1 ]; then
    python3 - "$apple" "$health" <<'PY'
import json, sys
budget = json.load(open("scripts/budget/cost-budget.json"))
failed = False
for route, figures in (("AppleVerify", sys.argv[1]), ("Healthz", sys.argv[2])):
    everything, without_futex = (float(x) for x in figures.split("/"))
    for name, measured in ((f"syscallsPer{route}", everything), (f"syscallsWithoutFutexPer{route}", without_futex)):
        ok = measured <= budget[name]
        failed |= not ok
        print(f"{name}: {measured:.2f} (budget {budget[name]}) {'OK' if ok else 'OVER BUDGET'}")
sys.exit(1 if failed else 0)
PY
fi

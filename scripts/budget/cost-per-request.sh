#!/usr/bin/env bash
# Instructions and heap allocations per verification, counted by valgrind rather than timed, so the figures repeat
# from run to run and machine to machine: `verifierd-bench iterations N` (release build, the demo envelope decrypted
# and verified N times, every check) and `verifierd-bench sdjwt-iterations N` (a PID-sized SD-JWT VC with 17
# disclosures, a KB-JWT and an x5c of two, every check) under callgrind for instructions and DHAT for allocations. Each figure is the
# difference between a run of N2 and one of N1 verifications, divided by N2 - N1, so start-up cancels out.
# With --check, compares against scripts/budget/cost-budget.json and exits 1 when a figure is over its budget: a
# regression guard that does not depend on the machine's speed. (The server is measured by scripts/bench/bench-service.sh;
# valgrind 3.19 stops on its Dispatch threads.)
#
# Usage: scripts/budget/cost-per-request.sh [--check]    (needs valgrind: apt-get install -y valgrind)
# SWIFT_RELEASE_FLAGS (e.g. "-Xswiftc -enable-testing", as .ci/run builds) are passed to the release build, so a
# build made with them is reused rather than rebuilt.
set -euo pipefail
# -h/--help prints the text above; --check as described; anything else is refused before anything is built.
CHECK=0
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --check) CHECK=1 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) echo "$(basename "$0"): unexpected argument '$arg' (it takes only --check; see --help)" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not found: apt-get install -y valgrind" >&2; exit 1; }
N1="${N1:-10}"
N2="${N2:-60}"
export SWIFT_DETERMINISTIC_HASHING=1

# shellcheck disable=SC2086
swift build -c release --product verifierd-bench ${SWIFT_RELEASE_FLAGS:-} >/dev/null
WORK="$(mktemp -d)"
# Valgrind 3.19 cannot read the DWARF 5 debug information Swift writes: count on copies without it (the symbols stay).
objcopy --strip-debug "$(swift build -c release --show-bin-path ${SWIFT_RELEASE_FLAGS:-})/verifierd-bench" "$WORK/verifierd-bench"
trap 'rm -rf "$WORK"' EXIT

# count TOOL LOG: the tool's total from its log (callgrind: instructions collected; DHAT: blocks allocated).
count() {
    case "$1" in
        callgrind) grep -o 'Collected : [0-9]*' "$2" | grep -o '[0-9]*$' ;;
        dhat) grep -o 'Total: *[0-9,]* bytes in [0-9,]* blocks' "$2" | sed 's/.* in \([0-9,]*\) blocks/\1/' | tr -d , ;;
    esac
}

tool_args() {
    case "$1" in
        callgrind) echo "--tool=callgrind --callgrind-out-file=/dev/null" ;;
        dhat) echo "--tool=dhat --dhat-out-file=/dev/null" ;;
    esac
}

# in_process TOOL N MODE: total for N in-process verifications (MODE iterations: the Apple envelope; sdjwt-iterations:
# the SD-JWT VC).
in_process() {
    # shellcheck disable=SC2046
    valgrind $(tool_args "$1") "$WORK/verifierd-bench" 1 "$3" "$2" > /dev/null 2> "$WORK/bench.log"
    count "$1" "$WORK/bench.log"
}

per_verification() {  # TOOL MODE
    local low high
    low="$(in_process "$1" "$N1" "$2")"
    high="$(in_process "$1" "$N2" "$2")"
    echo $(( (high - low) / (N2 - N1) ))
}

IN_INSTRUCTIONS="$(per_verification callgrind iterations)"
IN_ALLOCATIONS="$(per_verification dhat iterations)"
SDJWT_INSTRUCTIONS="$(per_verification callgrind sdjwt-iterations)"
SDJWT_ALLOCATIONS="$(per_verification dhat sdjwt-iterations)"

python3 - "$IN_INSTRUCTIONS" "$IN_ALLOCATIONS" "$CHECK" "$SDJWT_INSTRUCTIONS" "$SDJWT_ALLOCATIONS" <<'PY'
import json, sys
figures = {"instructions": int(sys.argv[1]), "allocations": int(sys.argv[2]),
           "sdJwtVcInstructions": int(sys.argv[4]), "sdJwtVcAllocations": int(sys.argv[5])}
budget = json.load(open("scripts/budget/cost-budget.json"))
print(f"per verification (demo envelope, in process): {figures['instructions']:,} instructions "
      f"(budget {budget['instructions']:,}), {figures['allocations']:,} heap allocations (budget {budget['allocations']:,})")
print(f"per SD-JWT VC verification (PID-sized, in process): {figures['sdJwtVcInstructions']:,} instructions "
      f"(budget {budget['sdJwtVcInstructions']:,}), {figures['sdJwtVcAllocations']:,} heap allocations "
      f"(budget {budget['sdJwtVcAllocations']:,})")
over = [f"{k}: {figures[k]:,} > {budget[k]:,}" for k in figures if figures[k] > budget[k]]
if over and sys.argv[3] == "1":
    print("over budget: " + "; ".join(over))
    sys.exit(1)
PY

#!/usr/bin/env bash
# Benchmarks the shared store: POST /v1/web/verify and POST /v1/apple/verify with issued nonces
# (apple.requireIssuedNonce), one-use bodies prepared by the Python wallets, on
#   memory:   one replica, the in-memory store;
#   postgres: two replicas on one throwaway PostgreSQL cluster (initdb + pg_ctl in a temporary folder, loopback),
#             bodies prepared on replica A and spent half on A, half on B (every web session and nonce is used on a
#             replica chosen independently of where it was made).
# Counts verified answers only: each body is sent once, a wrk thread stops when its bodies run out (no replays), and
# the run fails if any answer is not 200. Prints verified/s (summed over the replicas) and the worst p99 for each, and
# ends with one line per flow, exactly `ratio <web|apple> verified <r> p99 <q>` (r: PostgreSQL's verified/s over the
# memory store's; q: PostgreSQL's p99 over the memory store's). Release build; needs wrk and PostgreSQL.
# Usage: scripts/bench/bench-replicas.sh [bodies per endpoint, default 14000: under the per-kind session cap (web.maxSessions 113,000 over the demo's 8 kinds: 14,125), and enough for 2 s at 6,000 verified/s] [duration, default 2s] [connections per replica, default 8]
# (BENCH_POOL_SIZE: store.poolSize of each replica; unset, the service's default, one per core.)
set -euo pipefail
# -h/--help prints the text above; any other option is refused before anything is built, started or written.
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done
[ $# -le 3 ] || { echo "$(basename "$0"): too many arguments (see --help)" >&2; exit 2; }
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/lib/serve-lib.sh
source scripts/lib/serve-lib.sh
BODIES="${1:-14000}"
DURATION="${2:-2s}"
CONNECTIONS="${3:-8}"
command -v wrk >/dev/null 2>&1 || { echo "wrk not found: apt-get install -y wrk" >&2; exit 1; }
PGBIN="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)")"
[ -x "$PGBIN/initdb" ] || { echo "PostgreSQL not found: apt-get install -y postgresql" >&2; exit 1; }

# shellcheck disable=SC2086
swift build -c release --product verifierd ${SWIFT_RELEASE_FLAGS:-} >/dev/null
# shellcheck disable=SC2086
BIN="$(swift build -c release --show-bin-path ${SWIFT_RELEASE_FLAGS:-})/verifierd"
WORK="$(mktemp -d)"
chmod 755 "$WORK"
PIDS=()
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    # A replica that wrote to standard error (a crash report from the Swift runtime's backtracer among others) keeps
    # its logs: they are copied out of the temporary folder before it is removed.
    if compgen -G "$WORK/*.err" >/dev/null && [ -n "$(cat "$WORK"/*.err 2>/dev/null)" ]; then
        local kept; kept="/tmp/bench-replicas-logs-$(date +%s)"
        mkdir -p "$kept" && cp "$WORK"/*.log "$WORK"/*.err "$kept"/ 2>/dev/null || true
        echo "a replica wrote to standard error; its logs are kept in $kept" >&2
    fi
    as_postgres "$PGBIN/pg_ctl" -D "$WORK/pg/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/pg"
[ "$(id -u)" = 0 ] && chown postgres "$WORK/pg"
PGPORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
as_postgres "$PGBIN/initdb" -D "$WORK/pg/data" -A trust -U verifierd --no-sync -E UTF8 >/dev/null
as_postgres "$PGBIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w \
    -o "-p $PGPORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c max_connections=200 \
        -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c track_wal_io_timing=on" \
    start >/dev/null
"$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U verifierd bench
psql_bench() { "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U verifierd -d bench -X -q "$@"; }
psql_bench -c "CREATE EXTENSION pg_stat_statements" >/dev/null
POSTMASTER="$(head -1 "$WORK/pg/data/postmaster.pid")"

# cpu_ticks PID...: user+system clock ticks of the processes, and of PostgreSQL's postmaster and its children.
cpu_ticks() {
    python3 - "$POSTMASTER" "$@" <<'PY'
import os, sys
postmaster, pids = sys.argv[1], sys.argv[2:]
def fields(pid):
    text = open(f"/proc/{pid}/stat").read()
    return text[text.rindex(")") + 2:].split()
def ticks(pid):
    f = fields(pid)
    return int(f[11]) + int(f[12])
service = sum(ticks(p) for p in pids)
database = ticks(postmaster)
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            if fields(entry)[1] == postmaster: database += ticks(entry)
        except (OSError, IndexError):
            pass
print(service, database)
PY
}
openssl rand -base64 32 > "$WORK/session.key"

# start NAME [ENV=VALUE...]: one replica on the demo configuration with issued nonces required; sets PORT.
start() {
    local name="$1"; shift
    env VERIFIERD_SERVER_PORT=0 VERIFIERD_TRUST_POLL_SECONDS=0 VERIFIERD_APPLE_REQUIRE_ISSUED_NONCE=true \
        VERIFIERD_TRUST_IACA_DIRECTORY="$WORK/trust-$name" VERIFIERD_WEB_SESSION_TTL_SECONDS=3600 \
        VERIFIERD_APPLE_NONCE_TTL_SECONDS=3600 VERIFIERD_WEB_MAX_SESSIONS=113000 "$@" "$BIN" serve --config config/verifierd.json > "$WORK/$name.log" 2> "$WORK/$name.err" &
    PIDS+=($!)
    wait_for_port "$WORK/$name.log" && return
    echo "verifierd did not start" >&2; cat "$WORK/$name.log" >&2; exit 1
}

# counted_bodies_lua FILE: a wrk script POSTing FILE's lines once each; a thread whose lines run out stops (its last
# request is a GET /healthz, never a replay) and counts as exhausted. done() prints `COUNTS verified V not200 N
# exhausted E`: V answers were 200 with "verified":true, N were not 200, E threads ran out of bodies (the run then
# fails: wrk's rate is over the whole duration, so more bodies are needed).
counted_bodies_lua() {
    cat <<LUA
local threads = {}
function setup(thread)
    table.insert(threads, thread)
end
function init(args)
    bodies = {}
    for line in io.lines("$1") do table.insert(bodies, line) end
    position = 1
    verified = 0
    not200 = 0
    exhausted = 0
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.headers["Authorization"] = "Bearer demo-integrator-token-TEST-ONLY"
end
function request()
    local body = bodies[position]
    if body == nil then
        exhausted = 1
        wrk.thread:stop()
        return wrk.format("GET", "/healthz", nil, nil)
    end
    position = position + 1
    return wrk.format(nil, nil, nil, body)
end
function response(status, headers, body)
    if status ~= 200 then
        not200 = not200 + 1
    elseif string.find(body, '"verified":true', 1, true) then
        verified = verified + 1
    end
end
function done(summary, latency, requests)
    local v, n, e = 0, 0, 0
    for _, thread in ipairs(threads) do
        v = v + thread:get("verified")
        n = n + thread:get("not200")
        e = e + thread:get("exhausted")
    end
    io.write(string.format("COUNTS verified %d not200 %d exhausted %d\\n", v, n, e))
end
LUA
}

# bench LABEL PATH BODIES PORT...: splits the bodies over the ports and runs one wrk per port at once.
bench() {
    local label="$1" path="$2" bodies="$3"; shift 3
    local ports=("$@") count=$# index=0 tag
    tag="${label//[^A-Za-z0-9]/_}"
    for port in "${ports[@]}"; do
        awk -v n="$count" -v i="$index" 'NR % n == i' "$bodies" > "$WORK/$tag-$index.jsonl"
        counted_bodies_lua "$WORK/$tag-$index.jsonl" > "$WORK/$tag-$index.lua"
        index=$((index + 1))
    done
    index=0
    local runs=() before after
    before="$(cpu_ticks "${BENCH_PIDS[@]}")"
    for port in "${ports[@]}"; do
        wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$WORK/$tag-$index.lua" "http://127.0.0.1:$port$path" \
            > "$WORK/$tag-$index.out" &
        runs+=($!)
        index=$((index + 1))
    done
    for run in "${runs[@]}"; do wait "$run"; done
    after="$(cpu_ticks "${BENCH_PIDS[@]}")"
    python3 - "$tag" "$WORK" "$count" "$label" "$before" "$after" "$(getconf CLK_TCK)" <<'PY' | tee -a "$WORK/results"
import re, sys
tag, work, count, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
before, after, hz = [int(x) for x in sys.argv[5].split()], [int(x) for x in sys.argv[6].split()], int(sys.argv[7])
verified_total = 0
rate, p99s, not200, exhausted = 0.0, [], 0, 0
for i in range(count):
    text = open(f"{work}/{tag}-{i}.out").read()
    seconds = re.search(r"requests in ([\d.]+)(us|ms|s|m)", text)
    elapsed = float(seconds.group(1)) * {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60}[seconds.group(2)]
    counts = re.search(r"COUNTS verified (\d+) not200 (\d+) exhausted (\d+)", text)
    rate += int(counts.group(1)) / elapsed
    verified_total += int(counts.group(1))
    not200 += int(counts.group(2))
    exhausted += int(counts.group(3))
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
    p99s.append(float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)])
cpu = lambda i: (after[i] - before[i]) / hz * 1e6 / max(1, verified_total)
print(f"{label:28s} {rate:8.0f} verified/s   p99 {max(p99s):6.2f} ms   not-200 {not200}   "
      f"CPU per verified: verifierd {cpu(0):.0f} us, PostgreSQL {cpu(1):.0f} us")
if not200:
    print(f"FAIL: {not200} answers were not 200", file=sys.stderr)
    sys.exit(1)
if exhausted:
    print(f"FAIL: {exhausted} wrk threads ran out of bodies before the run ended: pass more bodies or a shorter duration",
          file=sys.stderr)
    sys.exit(1)
PY
}

prepare() {  # PORT: web bodies and Apple bodies (issued nonces) made on that replica
    python3 TestVectors/generator/web_wallet.py --base-url "http://127.0.0.1:$1" --issuer demo \
        --bench-bodies "$BODIES" --out "$WORK/web.jsonl"
    python3 TestVectors/generator/apple_wallet.py --base-url "http://127.0.0.1:$1" --count "$BODIES" --out "$WORK/apple.jsonl"
}

echo "== memory store, one replica =="
start memory; PORT_M="$PORT"; BENCH_PIDS=("${PIDS[-1]}")
prepare "$PORT_M"
bench "memory web/verify" /v1/web/verify "$WORK/web.jsonl" "$PORT_M"
bench "memory apple/verify+nonce" /v1/apple/verify "$WORK/apple.jsonl" "$PORT_M"

echo "== PostgreSQL store, two replicas =="
STORE=(VERIFIERD_STORE_KIND=postgres "VERIFIERD_STORE_URL=postgres://verifierd@127.0.0.1:$PGPORT/bench"
       "VERIFIERD_STORE_SESSION_KEY_FILE=$WORK/session.key")
[ -n "${BENCH_POOL_SIZE:-}" ] && STORE+=("VERIFIERD_STORE_POOL_SIZE=$BENCH_POOL_SIZE")
start a "${STORE[@]}"; PORT_A="$PORT"
start b "${STORE[@]}"; PORT_B="$PORT"; BENCH_PIDS=("${PIDS[-2]}" "${PIDS[-1]}")
prepare "$PORT_A"
psql_bench -c "SELECT pg_stat_statements_reset()" -c "SELECT pg_stat_reset_shared('wal')" >/dev/null
# BENCH_PERF=1: a CPU profile of replica A during the web run (perf record, software clock), its top symbols printed;
# BENCH_PERF=all: of every process on the machine (PostgreSQL and wrk too). BENCH_PERF_OUT keeps the profile there.
if [ "${BENCH_PERF:-0}" != 0 ]; then
    if [ "$BENCH_PERF" = all ]; then PERF_TARGET=(-a); else PERF_TARGET=(-p "${PIDS[-2]}"); fi
    perf record -e cpu-clock -F 1999 -g -o "${BENCH_PERF_OUT:-$WORK/perf.data}" "${PERF_TARGET[@]}" >/dev/null 2>&1 & PERF_PID=$!
fi
bench "postgres web/verify" /v1/web/verify "$WORK/web.jsonl" "$PORT_A" "$PORT_B"
if [ "${BENCH_PERF:-0}" != 0 ]; then
    kill -INT "$PERF_PID"; wait "$PERF_PID" 2>/dev/null || true
    perf report -i "${BENCH_PERF_OUT:-$WORK/perf.data}" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -15
    perf report -i "${BENCH_PERF_OUT:-$WORK/perf.data}" --no-children --sort symbol --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -40
fi
bench "postgres apple/verify+nonce" /v1/apple/verify "$WORK/apple.jsonl" "$PORT_A" "$PORT_B"

echo "== PostgreSQL profile of the two verify runs (pg_stat_statements, pg_stat_wal) =="
psql_bench -c "SELECT calls, round(total_exec_time::numeric, 1) AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms,
                      rows, regexp_replace(left(query, 90), '\s+', ' ', 'g') AS statement
               FROM pg_stat_statements WHERE calls > 10 ORDER BY total_exec_time DESC LIMIT 6" \
           -c "SELECT wal_records, wal_sync, round(wal_sync_time::numeric, 1) AS wal_sync_ms,
                      round(wal_write_time::numeric, 1) AS wal_write_ms FROM pg_stat_wal"

python3 - "$WORK/results" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"(memory|postgres) (web|apple)\S*\s+(\d+) verified/s\s+p99\s+([\d.]+) ms", line)
    if m:
        rows[(m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(4)))
for flow in ("web", "apple"):
    memory, postgres = rows[("memory", flow)], rows[("postgres", flow)]
    print(f"ratio {flow} verified {postgres[0] / memory[0]:.2f} p99 {postgres[1] / memory[1]:.2f}")
PY

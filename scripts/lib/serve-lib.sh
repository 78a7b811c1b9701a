# Shared by the scripts that run verifierd in the background (source it; needs BIN set).
#   start_server LOG CONFIG [ENV=VALUE...]: starts `verifierd serve` with a free port; sets PID and PORT
#   wait_for_port LOG: sets PORT from a starting service's log (for scripts that start it themselves)
#   stop_server: SIGTERM and wait
#   one_use_bodies_lua FILE [THREADS]: a wrk script POSTing FILE's lines as JSON bodies, each once (wrk thread i of
#     THREADS takes every THREADS-th line; when they run out the last repeats, which the service answers as a replay)
start_server() {
    local log="$1" config="$2"
    shift 2
    env VERIFIERD_SERVER_PORT=0 VERIFIERD_TRUST_POLL_SECONDS=0 "$@" "$BIN" serve --config "$config" > "$log" &
    PID=$!
    wait_for_port "$log" || { echo "verifierd did not start"; cat "$log"; exit 1; }
}
# wait_for_port LOG: sets PORT to the port a starting service logged (its "listening" line), within 10 s; returns 1
# when none appeared. The one place the port is read from a log.
wait_for_port() {
    PORT=""
    for _ in $(seq 1 100); do
        PORT="$(grep -o '"port":"\?[0-9]*' "$1" | head -1 | grep -o '[0-9]\+' || true)"
        [ -n "$PORT" ] && return 0
        sleep 0.1
    done
    return 1
}
stop_server() {
    if [ -n "${PID:-}" ] && kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; fi
    PID=""
}

one_use_bodies_lua() {
    cat <<LUA
local counter = 0
function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
end
function init(args)
    bodies = {}
    local index = 0
    for line in io.lines("$1") do
        if index % ${2:-1} == id then table.insert(bodies, line) end
        index = index + 1
    end
    position = 1
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    wrk.headers["Authorization"] = "Bearer ${INTEGRATOR_TOKEN:-demo-integrator-token-TEST-ONLY}"
end
function request()
    local body = bodies[position] or bodies[#bodies]
    position = position + 1
    return wrk.format(nil, nil, nil, body)
end
LUA
}

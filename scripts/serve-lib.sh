# Shared by the scripts that run verifierd in the background (source it; needs BIN set).
#   start_server LOG CONFIG [ENV=VALUE...]: starts `verifierd serve` with a free port; sets PID and PORT
#   stop_server: SIGTERM and wait
#   one_use_bodies_lua FILE [THREADS]: a wrk script POSTing FILE's lines as JSON bodies, each once (wrk thread i of
#     THREADS takes every THREADS-th line; when they run out the last repeats, which the service answers as a replay)
start_server() {
    local log="$1" config="$2"
    shift 2
    env VERIFIERD_SERVER_PORT=0 VERIFIERD_TRUST_POLL_SECONDS=0 "$@" "$BIN" serve --config "$config" > "$log" &
    PID=$!
    PORT=""
    for _ in $(seq 1 100); do
        PORT="$(grep -o '"port":"\?[0-9]*' "$log" | head -1 | grep -o '[0-9]\+' || true)"
        [ -n "$PORT" ] && break
        sleep 0.1
    done
    [ -n "$PORT" ] || { echo "verifierd did not start"; cat "$log"; exit 1; }
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

# Shared by the scripts that run verifierd in the background (source it; needs BIN set).
#   start_server LOG CONFIG [ENV=VALUE...]: starts `verifierd serve` with a free port; sets PID and PORT
#   stop_server: SIGTERM and wait
start_server() {
    local log="$1" config="$2"
    shift 2
    env VERIFIERD_SERVER_PORT=0 VERIFIERD_TRUST_POLL_SECONDS=0 "$@" "$BIN" serve --config "$config" > "$log" &
    PID=$!
    PORT=""
    for _ in $(seq 1 100); do
        PORT="$(grep -o '"port":"[0-9]*"' "$log" | head -1 | grep -o '[0-9]\+' || true)"
        [ -n "$PORT" ] && break
        sleep 0.1
    done
    [ -n "$PORT" ] || { echo "verifierd did not start"; cat "$log"; exit 1; }
}
stop_server() {
    if [ -n "${PID:-}" ] && kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; fi
    PID=""
}

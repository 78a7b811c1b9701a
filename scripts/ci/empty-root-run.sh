#!/usr/bin/env bash
# What the container image would run, proved without a container engine:
#   1. build the release binary with the Dockerfile's own build line (read from the Dockerfile, so the flags cannot
#      drift) and strip it as the Dockerfile does;
#   2. fill an empty folder with only what the runtime stage holds: the binary, the configuration folder mounted at
#      /etc/verifierd (config/examples/container), the CA certificates, the writable /var/lib/verifierd owned by
#      10001, and the shared libraries the binary loads (the runtime stage's apt packages; here taken from this
#      machine: libcurl, libssl, zlib, libc);
#   3. start `verifierd serve` chrooted there as uid/gid 10001, in its own mount and PID namespace, with /proc and
#      the four /dev nodes a container runtime provides;
#   4. send the demo request (TestVectors/demo/verify-request.json) and require "verified":true, run the image's
#      HEALTHCHECK command inside the root, and check that no Swift runtime library is loaded.
#
# usage: scripts/ci/empty-root-run.sh [--keep]     (needs root for chroot, mknod and unshare; prints the binary's size)
set -euo pipefail
# -h/--help prints the text above; --keep as described; anything else is refused before anything is built.
keep=0
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --keep) keep=1 ;;
        -*) echo "$(basename "$0"): unknown option '$arg' (see --help)" >&2; exit 2 ;;
        *) echo "$(basename "$0"): unexpected argument '$arg' (it takes only --keep; see --help)" >&2; exit 2 ;;
    esac
done
cd "$(dirname "$0")/../.."

fail() { echo "empty-root-run: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (chroot, mknod, unshare)"

# 1. The Dockerfile's build line, with a separate scratch path so the test build's products stay as they are.
build_line=$(grep -m1 -E '^RUN swift build -c release --product verifierd' Dockerfile | sed -E 's/^RUN //; s/ *\\$//; s/ *&&.*$//')
[ -n "$build_line" ] || fail "no 'RUN swift build' line in Dockerfile"
case "$build_line" in *--static-swift-stdlib*) ;; *) fail "the Dockerfile's build line lost --static-swift-stdlib" ;; esac
grep -q 'strip --strip-all /out/verifierd' Dockerfile || fail "the Dockerfile no longer strips the binary"
scratch=.build/static
echo "empty-root-run: $build_line --scratch-path $scratch"
# shellcheck disable=SC2086
flock /tmp/verifierd-build.lock $build_line --scratch-path "$scratch" >/tmp/empty-root-build.log 2>&1 \
    || { tail -30 /tmp/empty-root-build.log; fail "build failed"; }
bin_dir=$(swift build -c release --show-bin-path --scratch-path "$scratch")
unstripped=$(stat -c %s "$bin_dir/verifierd")

root=$(mktemp -d /tmp/verifierd-root.XXXXXX)
chmod 0755 "$root"
server_pid=""
cleanup() {
    # The service is PID 1 of its own namespace, a child of unshare: killing it ends the namespace, and then unshare
    # (which ignores SIGTERM while it waits). --kill-child alone is not enough: chroot --userspec changes the uid,
    # and that clears the parent-death signal. `|| true` throughout: set -e applies inside this trap, and the killed
    # child's 137 from wait would otherwise become the script's exit status.
    if [ -n "$server_pid" ]; then
        for child in $(cat "/proc/$server_pid/task/$server_pid/children" 2>/dev/null); do kill -KILL "$child" 2>/dev/null || true; done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "$keep" = 1 ]; then echo "empty-root-run: root kept at $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

# 2. The runtime stage's contents, nothing else.
install -D -m 0755 "$bin_dir/verifierd" "$root/usr/local/bin/verifierd"
strip --strip-all "$root/usr/local/bin/verifierd"
stripped=$(stat -c %s "$root/usr/local/bin/verifierd")
# A guard against the image growing unnoticed (80 MiB on 2026-11-25, 33 MiB of it Foundation's ICU data).
[ "$stripped" -le $((100 * 1048576)) ] || fail "the stripped binary is $((stripped / 1048576)) MiB, over the 100 MiB guard"
if ldd "$root/usr/local/bin/verifierd" | grep -q 'libswift\|libFoundation\|lib_Foundation\|libdispatch'; then
    ldd "$root/usr/local/bin/verifierd"; fail "the binary loads a Swift runtime library: not statically linked"
fi
for lib in $(ldd "$root/usr/local/bin/verifierd" | grep -oE '/[^ ]+' | sort -u); do
    real=$(readlink -f "$lib")
    install -D -m 0755 "$real" "$root$lib"
done
mkdir -p "$root/etc/ssl/certs" "$root/etc/verifierd" "$root/proc" "$root/dev" "$root/tmp" "$root/var/lib/verifierd"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
cp -R config/examples/container/. "$root/etc/verifierd/"
chown -R root:10001 "$root/etc/verifierd"; chmod -R g+rX,o-rwx "$root/etc/verifierd"
chown 10001:10001 "$root/var/lib/verifierd"; chmod 0750 "$root/var/lib/verifierd"
chmod 1777 "$root/tmp"
files=$(find "$root" -type f | wc -l)

chroot_bin=$(command -v chroot) || fail "chroot not found (coreutils)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# 3. Serve from the empty root: own mount and PID namespaces, /proc and /dev nodes as a container runtime gives.
unshare --mount --pid --fork --kill-child sh -c '
    root=$1; port=$2; chroot_bin=$3
    mount -t proc proc "$root/proc"
    mknod -m 0666 "$root/dev/null" c 1 3; mknod -m 0666 "$root/dev/zero" c 1 5
    mknod -m 0666 "$root/dev/random" c 1 8; mknod -m 0666 "$root/dev/urandom" c 1 9
    exec env -i VERIFIERD_SERVER_HOST=127.0.0.1 VERIFIERD_SERVER_PORT="$port" \
        "$chroot_bin" --userspec=10001:10001 "$root" /usr/local/bin/verifierd serve --config /etc/verifierd/verifierd.json
' sh "$root" "$port" "$chroot_bin" >"$root/tmp/serve.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$root/tmp/serve.log"; fail "the service stopped at start-up"; }
    sleep 0.1
done

# 4. The demo request, the image's health check, and what the service wrote.
answer=$(curl -sS -H 'Authorization: Bearer demo-integrator-token-TEST-ONLY' \
    --data @TestVectors/demo/verify-request.json "http://127.0.0.1:$port/v1/apple/verify")
case "$answer" in
    '{"verified":true,'*) ;;
    *) cat "$root/tmp/serve.log"; fail "demo request not verified: ${answer:0:300}" ;;
esac
# In a namespace of its own with /proc, as a container runtime runs it: the statically linked Swift runtime reads its
# arguments from /proc/self/cmdline, so without /proc the command would see none.
health=$(unshare --mount --pid --fork --kill-child sh -c '
    root=$1; port=$2; chroot_bin=$3
    mount -t proc proc "$root/proc"
    exec env -i VERIFIERD_SERVER_HOST=127.0.0.1 VERIFIERD_SERVER_PORT="$port" "$chroot_bin" --userspec=10001:10001 "$root" \
        /usr/local/bin/verifierd health --config /etc/verifierd/verifierd.json --timeout 3
' sh "$root" "$port" "$chroot_bin") || fail "HEALTHCHECK command failed: $health"
[ -f "$root/var/lib/verifierd/trusted-iaca/current" ] || [ -L "$root/var/lib/verifierd/trusted-iaca/current" ] \
    || fail "the trust set was not seeded into /var/lib/verifierd"
if grep -q '"level":"error"' "$root/tmp/serve.log"; then cat "$root/tmp/serve.log"; fail "error lines in the log"; fi

echo "empty-root-run: OK: binary $((unstripped / 1048576)) MiB unstripped, $((stripped / 1048576)) MiB stripped;" \
     "root holds $files files; demo request verified; health: $health"

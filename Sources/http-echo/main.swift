// http-echo: a tiny server for tests and benchmarks.
//
//   GET  /hello        -> "hello"
//   POST /echo         -> the request body
//   GET  /slow?ms=N    -> waits N ms (at most 60 s), then "slow"
//
// Options (each also read from the environment variable in brackets):
//   --host H [HTTP_ECHO_HOST]           default 127.0.0.1
//   --port P [HTTP_ECHO_PORT]           default 0 (a free port)
//   --header-timeout S [HTTP_ECHO_HEADER_TIMEOUT]  seconds
//   --body-timeout S [HTTP_ECHO_BODY_TIMEOUT]      seconds
//   --idle-timeout S [HTTP_ECHO_IDLE_TIMEOUT]      seconds
//   --shutdown-grace S [HTTP_ECHO_SHUTDOWN_GRACE]  seconds
//   --max-connections N [HTTP_ECHO_MAX_CONNECTIONS]
// Prints "listening on PORT" once bound; exits 0 after a graceful shutdown on SIGTERM or SIGINT.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPServer
import HTTPTypes

func option(_ flag: String, env: String) -> String? {
    let args = CommandLine.arguments
    if let i = args.firstIndex(of: flag), i + 1 < args.count { return args[i + 1] }
    if let p = getenv(env) { return String(cString: p) }
    return nil
}

func seconds(_ flag: String, env: String) -> Duration? {
    guard let s = option(flag, env: env), let v = Double(s), v > 0 else { return nil }
    return .milliseconds(Int64(v * 1000))
}

func fail(_ message: String) -> Never {
    let line = "http-echo: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

var configuration = HTTPServerConfiguration(port: 0)
if let host = option("--host", env: "HTTP_ECHO_HOST") { configuration.host = host }
if let p = option("--port", env: "HTTP_ECHO_PORT") {
    guard let port = Int(p), (0...65535).contains(port) else { fail("invalid port \(p)") }
    configuration.port = port
}
if let d = seconds("--header-timeout", env: "HTTP_ECHO_HEADER_TIMEOUT") { configuration.headerReadTimeout = d }
if let d = seconds("--body-timeout", env: "HTTP_ECHO_BODY_TIMEOUT") { configuration.bodyReadTimeout = d }
if let d = seconds("--idle-timeout", env: "HTTP_ECHO_IDLE_TIMEOUT") { configuration.idleTimeout = d }
if let d = seconds("--shutdown-grace", env: "HTTP_ECHO_SHUTDOWN_GRACE") { configuration.shutdownGracePeriod = d }
if let m = option("--max-connections", env: "HTTP_ECHO_MAX_CONNECTIONS") {
    guard let n = Int(m), n > 0 else { fail("invalid max connections \(m)") }
    configuration.maxConnections = n
}

var router = Router()
router.get("/hello") { _ in .text("hello") }
router.post("/echo") { request in
    var fields = HTTPFields()
    fields[.contentType] = request.head.headerFields[.contentType] ?? "application/octet-stream"
    return HTTPServerResponse(status: .ok, headerFields: fields, body: request.body)
}
router.get("/slow") { request in
    let ms = min(max(Int(request.query("ms") ?? "0") ?? 0, 0), 60_000)
    try await Task.sleep(for: .milliseconds(ms))
    return .text("slow")
}

let server = HTTPServer(configuration: configuration, router: router)
do {
    try server.start()
} catch {
    fail("cannot start: \(error)")
}
let signals = HTTPServerSignals.shutdownOnSignals(server)
print("listening on \(server.port)")
fflush(nil)
await server.waitUntilStopped()
withExtendedLifetime(signals) {}
exit(0)

import Foundation
import HTTPServer

/// Starting a test server on a fixed loopback port.
public enum LoopbackListener {
    /// Starts `router` on 127.0.0.1:`port`. The port may still be held for a moment by the previous test's server,
    /// which closes its listener asynchronously: this tries again for up to 5 s.
    public static func start(_ router: Router, port: Int) throws -> HTTPServer {
        var attempt = 0
        while true {
            let candidate = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port), router: router)
            do {
                try candidate.start()
                return candidate
            } catch {
                attempt += 1
                if attempt >= 50 { throw error }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }
}

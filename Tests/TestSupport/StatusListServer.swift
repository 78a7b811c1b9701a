import Foundation
import HTTPServer
import HTTPTypes
import Synchronization

/// A loopback HTTP server (our own server type) that serves the generated status lists of TestVectors/status on
/// the fixed port their URIs name, plus the failure modes a real issuer can show: a slow list, an oversized one,
/// and 404 for anything else. It counts fetches per path.
public final class StatusListServer: Sendable {
    public static let port = 18613
    public static let folder = Fixtures.testVectors.appendingPathComponent("status")

    private let server: HTTPServer
    private let counts = FetchCounts()

    private final class FetchCounts: Sendable {
        let byName = Mutex<[String: Int]>([:])
    }

    /// Starts the server. `slowSeconds` is how long `/lists/slow` waits; `/lists/oversized` sends `oversizedBytes`;
    /// `replacing` serves other bytes under a list's name (a list minted now, for a service on the real clock).
    public convenience init(slowSeconds: Double = 3, oversizedBytes: Int = 2 << 20, replacing: [String: [UInt8]] = [:]) throws {
        var lists: [String: [UInt8]] = [:]
        let listFolder = Self.folder.appendingPathComponent("lists")
        for name in try FileManager.default.contentsOfDirectory(atPath: listFolder.path) where name.hasSuffix(".cwt.hex") {
            lists[String(name.dropLast(".cwt.hex".count))] = try Fixtures.hexFile(listFolder.appendingPathComponent(name))
        }
        lists.merge(replacing) { _, replacement in replacement }
        try self.init(port: Self.port, lists: lists, contentType: "application/statuslist+cwt", slowSeconds: slowSeconds,
                      oversizedBytes: oversizedBytes)
    }

    /// The port the SD-JWT VC vectors' JWT status lists name (`TestVectors/sdjwt`).
    public static let jwtPort = 18614

    /// Serves the JWT status lists of `TestVectors/sdjwt/lists` (`<name>.jwt`) on ``jwtPort``.
    public static func jwtLists() throws -> StatusListServer {
        var lists: [String: [UInt8]] = [:]
        let listFolder = Fixtures.testVectors.appendingPathComponent("sdjwt/lists")
        for name in try FileManager.default.contentsOfDirectory(atPath: listFolder.path) where name.hasSuffix(".jwt") {
            lists[String(name.dropLast(".jwt".count))] = try Fixtures.bytes(listFolder.appendingPathComponent(name))
        }
        return try StatusListServer(port: jwtPort, lists: lists, contentType: "application/statuslist+jwt", slowSeconds: 3,
                                    oversizedBytes: 2 << 20, files: try SDJWTVCMetadataVectors.servedFiles())
    }

    /// `files`: more paths served as they are (`TestVectors/sdjwt-metadata`'s issuer metadata, key sets and lists).
    private init(port: Int, lists: [String: [UInt8]], contentType: String, slowSeconds: Double, oversizedBytes: Int,
                 files: [SDJWTVCMetadataVectors.ServedFile] = []) throws {
        let counts = self.counts
        let served = lists
        var router = Router()
        for file in files {
            router.get(file.path) { _ in
                counts.byName.withLock { $0[file.path, default: 0] += 1 }
                var fields = HTTPFields()
                fields[.contentType] = file.contentType
                return HTTPServerResponse(status: HTTPResponse.Status(code: file.status), headerFields: fields, body: file.bytes)
            }
        }
        router.get("/lists/:name") { request in
            let name = request.pathParameters["name"] ?? ""
            counts.byName.withLock { $0[name, default: 0] += 1 }
            var fields = HTTPFields()
            fields[.contentType] = contentType
            switch name {
            case "slow":
                try await Task.sleep(for: .milliseconds(Int(slowSeconds * 1000)))
                return HTTPServerResponse(status: .ok, headerFields: fields, body: served["bits1"] ?? [])
            case "oversized":
                return HTTPServerResponse(status: .ok, headerFields: fields, body: [UInt8](repeating: 0xa0, count: oversizedBytes))
            default:
                guard let body = served[name] else { return .text("no such list", status: .notFound) }
                return HTTPServerResponse(status: .ok, headerFields: fields, body: body)
            }
        }
        // Redirects: to the same list over the same scheme, or to https (which a fetcher allowed only http must refuse).
        router.get("/redirect/:how") { request in
            var fields = HTTPFields()
            let how = request.pathParameters["how"] ?? ""
            fields[.location] = how == "https" ? "https://127.0.0.1:\(port)/lists/bits1" : "/lists/bits1"
            return HTTPServerResponse(status: .found, headerFields: fields)
        }
        server = try LoopbackListener.start(router, port: port)
    }

    /// How often `/lists/<name>` (or a served file, by its path) was asked for.
    public func fetches(_ name: String) -> Int { counts.byName.withLock { $0[name] ?? 0 } }

    public func stop() async {
        await server.shutdown(deadline: .seconds(1))
    }
}

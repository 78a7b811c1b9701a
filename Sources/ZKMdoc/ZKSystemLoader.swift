import Dispatch
import Foundation
import Longfellow
import Synchronization

/// Loads the circuits of accepted systems from files, once, at start: each file must hold the circuit of its
/// published system (its content gives that system's circuit hash; the file's name proves nothing).
public enum ZKSystemLoader {
    /// One system to load: a published version and attribute count, the circuit file, the id documents use.
    public struct Entry: Sendable {
        public let version: Int
        public let attributes: Int
        public let file: URL
        public let id: String?

        public init(version: Int, attributes: Int, file: URL, id: String?) {
            self.version = version
            self.attributes = attributes
            self.file = file
            self.id = id
        }
    }

    /// Why an entry did not load.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No published system has this version and attribute count (or its version is refused).
        case notPublished(version: Int, attributes: Int)
        /// The file does not exist.
        case missing(String)
        case unreadable(String, String)
        case notACircuit(String, String)
        /// The file's content gives another circuit hash than the system's.
        case wrongCircuit(file: String, expected: String, found: String)

        public var description: String {
            switch self {
            case .notPublished(let version, let attributes):
                "no published longfellow-libzk-v1 system has version \(version) and \(attributes) attribute(s)"
            case .missing(let file): "\(file) does not exist"
            case .unreadable(let file, let reason): "\(file) cannot be read: \(reason)"
            case .notACircuit(let file, let reason): "\(file) is not a Longfellow circuit file: \(reason)"
            case .wrongCircuit(let file, let expected, let found):
                "\(file) holds circuit \(found), not the system's \(expected)"
            }
        }
    }

    /// The largest circuit file read (the published ones are about 330 KB compressed).
    public static let maximumFileBytes = 16 << 20

    /// Loads every entry, two files at a time (each takes most of a second); the results are in entry order.
    public static func load(_ entries: [Entry]) -> [Result<ZKSystem, Failure>] {
        let results = Mutex<[Result<ZKSystem, Failure>?]>(Array(repeating: nil, count: entries.count))
        DispatchQueue.concurrentPerform(iterations: entries.count) { index in
            let result = load(entries[index])
            results.withLock { $0[index] = result }
        }
        return results.withLock { loaded in
            loaded.enumerated().map { index, result in result ?? .failure(.missing(entries[index].file.path)) }
        }
    }

    /// Loads one entry.
    public static func load(_ entry: Entry) -> Result<ZKSystem, Failure> {
        guard let spec = LongfellowSystemSpec.published.first(where: { $0.version == entry.version && $0.attributeCount == entry.attributes })
        else { return .failure(.notPublished(version: entry.version, attributes: entry.attributes)) }
        let path = entry.file.path
        guard FileManager.default.fileExists(atPath: path) else { return .failure(.missing(path)) }
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: entry.file)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
            guard data.count <= maximumFileBytes else {
                return .failure(.unreadable(path, "it is larger than \(maximumFileBytes) bytes"))
            }
            bytes = Array(data)
        } catch {
            return .failure(.unreadable(path, "\(error.localizedDescription)"))
        }
        let circuit: CircuitFile
        do {
            circuit = try CircuitFile(compressed: bytes)
        } catch {
            return .failure(.notACircuit(path, "\(error)"))
        }
        guard let system = ZKSystem(id: entry.id, spec: spec, circuit: circuit) else {
            return .failure(.wrongCircuit(file: path, expected: spec.circuitHash, found: circuit.circuitHashHex))
        }
        return .success(system)
    }
}

import Foundation

/// Reads trusted IACA roots from a directory: PEM files with one or more certificates, or DER files.
public enum TrustAnchorDirectory {
    /// File name endings that are read; anything else (READMEs, hidden files) is ignored.
    public static let certificateExtensions: Set<String> = ["pem", "crt", "cer", "der"]

    /// Loads every certificate file in `directory` (not recursive; symlinks followed). Any file that is not a
    /// usable IACA fails the whole load, so a half-valid set never takes effect.
    public static func load(from directory: URL) throws(TrustAnchorError) -> [TrustAnchor] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw .unreadable(source: directory.path, reason: "\(error)")
        }
        var anchors: [TrustAnchor] = []
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            guard certificateExtensions.contains(url.pathExtension.lowercased()) else { continue }
            let data: [UInt8]
            do {
                data = Array(try Data(contentsOf: url))
            } catch {
                throw .unreadable(source: name, reason: "\(error)")
            }
            for der in try CertificateParsing.derCertificates(from: data, source: name) {
                anchors.append(try TrustAnchor(derBytes: der, source: name))
            }
        }
        return anchors
    }
}

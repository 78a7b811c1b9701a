import Foundation

/// Reads trusted IACA roots from a directory: PEM files with one or more certificates, or DER files, and the
/// optional `anchors.json` manifest with their metadata.
public enum AnchorFiles {
    /// File name endings that are read; anything else (READMEs, hidden files) is ignored.
    public static let certificateExtensions: Set<String> = ["pem", "crt", "cer", "der"]

    /// Loads every certificate file in `directory` (not recursive; symlinks followed). Any file that is not a
    /// usable IACA fails the whole load, so a half-valid set never takes effect. The same certificate twice (two
    /// files, or twice in one file) is one anchor.
    public static func load(from directory: URL) throws(TrustAnchorError) -> TrustSet {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw .unreadable(source: directory.path, reason: Self.reason(error))
        }
        var manifest: TrustManifest?
        if names.contains(TrustManifest.fileName) {
            let data: Data
            do {
                data = try Data(contentsOf: directory.appendingPathComponent(TrustManifest.fileName))
            } catch {
                throw .unreadable(source: TrustManifest.fileName, reason: Self.reason(error))
            }
            manifest = try TrustManifest.decode(data, source: TrustManifest.fileName)
        }
        var metadata: [String: [String: TrustAnchorMetadata]] = [:]
        for entry in manifest?.anchors ?? [] {
            metadata[entry.file, default: [:]][entry.sha256] = entry.metadata
        }
        var anchors: [TrustAnchor] = []
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            guard certificateExtensions.contains(url.pathExtension.lowercased()) else { continue }
            let data: [UInt8]
            do {
                data = Array(try Data(contentsOf: url))
            } catch {
                throw .unreadable(source: name, reason: Self.reason(error))
            }
            for der in try CertificateParsing.derCertificates(from: data, source: name) {
                var anchor = try TrustAnchor(derBytes: der, file: name)
                if let known = metadata[name]?[anchor.sha256] { anchor.metadata = known }
                anchors.append(anchor)
            }
        }
        return TrustSet(anchors: anchors, lists: manifest?.lists ?? [:]).normalized()
    }

    /// "permission denied" rather than a Foundation error dump.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoPermissionError { return "permission denied" }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        return nsError.localizedDescription
    }
}

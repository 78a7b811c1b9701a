import Foundation
import TestSupport
import TrustStore

enum TrustFixtures {
    /// Loads anchors from certificate files (PEM or DER).
    static func anchors(_ urls: [URL]) throws -> TrustSnapshot {
        var anchors: [TrustAnchor] = []
        for url in urls {
            for der in try CertificateParsing.derCertificates(from: try Fixtures.bytes(url), source: url.lastPathComponent) {
                anchors.append(try TrustAnchor(derBytes: der, file: url.lastPathComponent))
            }
        }
        return TrustSnapshot(anchors: anchors)
    }
}

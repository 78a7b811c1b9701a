import Foundation
import Testing
import TestSupport
import TrustStore
@testable import TrustLists

/// `trust.vicalSigners` anchors: PEM with any RFC 7468 line end; a plain reason for DER that is not a certificate.
struct VICALSignerAnchorTests {
    static let root = Fixtures.testVectors.appendingPathComponent("vical/signer-root.pem")

    @Test(arguments: ["\r\n", "\r"])
    func crlfAndCRPEMLoadTheSameAnchor(lineEnd: String) throws {
        let lf = try VICALSignerAnchor(pemOrDER: try Fixtures.bytes(Self.root))
        let text = try Fixtures.text(Self.root).replacingOccurrences(of: "\n", with: lineEnd)
        let other = try VICALSignerAnchor(pemOrDER: Array(text.utf8), source: "signer-root.pem")
        #expect(other.derBytes == lf.derBytes)
        #expect(other.subject == lf.subject)
    }

    @Test func derThatIsNotACertificateSaysSoWithoutLibraryInternals() throws {
        let der = try VICALSignerAnchor(pemOrDER: try Fixtures.bytes(Self.root)).derBytes
        let error = #expect(throws: TrustAnchorError.self) {
            try VICALSignerAnchor(pemOrDER: Array(der.prefix(100)), source: "signer.der")
        }
        let text = error?.description ?? ""
        #expect(error?.code == "IACA_UNPARSABLE")
        #expect(text.contains("signer.der") && text.contains("does not parse as an X.509 certificate"), "\(text)")
        #expect(!text.contains(".swift") && !text.contains("ASN1Error"), "\(text)")
        #expect(text.range(of: #":\d"#, options: .regularExpression) == nil, "\(text)")
    }
}

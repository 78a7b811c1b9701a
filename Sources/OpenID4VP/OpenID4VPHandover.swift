import CBOR
import Crypto

/// The SessionTranscripts of OpenID4VP 1.0 Appendix B.2.6: `[null, null, Handover]`, where the handover is a name and
/// the SHA-256 of the CBOR-encoded handover info.
public enum OpenID4VPHandover {
    /// B.2.6.2, over the Digital Credentials API: `["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, nonce,
    /// jwkThumbprint]))]`. The thumbprint is the RFC 7638 SHA-256 of the response-encryption key for `dc_api.jwt`,
    /// and null for `dc_api` (the prose of B.2.6.2; its CDDL says bstr).
    public static func dcAPI(origin: String, nonce: String, jwkThumbprint: [UInt8]?) -> [UInt8] {
        transcript(name: "OpenID4VPDCAPIHandover", info: [.text(origin), .text(nonce), thumbprint(jwkThumbprint)])
    }

    /// B.2.6.1, by redirects: `["OpenID4VPHandover", SHA-256(CBOR([clientId, nonce, jwkThumbprint, responseUri]))]`,
    /// the client identifier with its prefix.
    public static func redirect(clientId: String, nonce: String, jwkThumbprint: [UInt8]?, responseURI: String) -> [UInt8] {
        transcript(name: "OpenID4VPHandover",
                   info: [.text(clientId), .text(nonce), thumbprint(jwkThumbprint), .text(responseURI)])
    }

    /// The handover info's encoding, for tests against the specification's examples.
    static func infoBytes(_ info: [CBOR]) -> [UInt8] {
        CBOREncoder().encode(.array(info))
    }

    private static func thumbprint(_ bytes: [UInt8]?) -> CBOR {
        bytes.map { CBOR.bytes($0) } ?? .null
    }

    private static func transcript(name: String, info: [CBOR]) -> [UInt8] {
        let hash = Array(SHA256.hash(data: infoBytes(info)))
        return CBOREncoder().encode([.null, .null, [.text(name), .bytes(hash)]])
    }
}

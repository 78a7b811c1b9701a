import Encodings
import Foundation
import Testing
@testable import OpenID4VP

/// The SessionTranscripts of OpenID4VP 1.0 Appendix B.2.6, byte for byte against the specification's own examples.
struct OpenID4VPHandoverTests {
    static let nonce = "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA"
    static let x = "DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0"
    static let y = "XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc"

    @Test func theJWKThumbprintIsRFC7638() {
        #expect(ResponseEncryptionKey.thumbprint(x: Self.x, y: Self.y).hexString
            == "4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047")
    }

    @Test func digitalCredentialsAPIExample() {
        let thumbprint = ResponseEncryptionKey.thumbprint(x: Self.x, y: Self.y)
        let transcript = OpenID4VPHandover.dcAPI(origin: "https://example.com", nonce: Self.nonce, jwkThumbprint: thumbprint)
        #expect(transcript.hexString == "83f6f682764f70656e4944345650444341504948616e646f7665725820"
            + "fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a")
    }

    @Test func redirectExample() {
        let thumbprint = ResponseEncryptionKey.thumbprint(x: Self.x, y: Self.y)
        let transcript = OpenID4VPHandover.redirect(clientId: "x509_san_dns:example.com", nonce: Self.nonce,
                                                    jwkThumbprint: thumbprint, responseURI: "https://example.com/response")
        #expect(transcript.hexString == "83f6f682714f70656e494434565048616e646f7665725820"
            + "048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac")
    }

    /// `dc_api` (no encryption): the thumbprint is CBOR null, never an empty byte string.
    @Test func unencryptedAnswersHashANullThumbprint() {
        let transcript = OpenID4VPHandover.dcAPI(origin: "https://example.com", nonce: Self.nonce, jwkThumbprint: nil)
        #expect(transcript.hexString == "83f6f682764f70656e4944345650444341504948616e646f7665725820"
            + "3563b629e28bf0a736c6ba6faacb60a9cd3074e51416a04565031d8690638c43")
        #expect(transcript != OpenID4VPHandover.dcAPI(origin: "https://example.com", nonce: Self.nonce, jwkThumbprint: []))
    }

    /// The EUDI reference verifier's redirect-flow session (../shared/vectors/external/eudi-verifier-endpoint 08):
    /// client_id without prefix, its nonce and response URI, the thumbprint of its encryption key.
    @Test func theEUDIVerifiersTranscriptIsRebuilt() {
        let thumbprint = [UInt8](hexString: "d87a4e6086bc76e46f104febf4dd8a2bb5861ffcf9a4af928a1f9c5ead0e6423")
        let transcript = OpenID4VPHandover.redirect(clientId: "Verifier", nonce: "706f6c4d-c92d-4472-9dbf-d814c94f90c2",
                                                    jwkThumbprint: thumbprint,
                                                    responseURI: "http://localhost:0/wallet/direct_post/1234567890")
        #expect(transcript.hexString == "83f6f682714f70656e494434565048616e646f7665725820"
            + "cf8c946902fd8b9185fc0ddb78e717e249b4095e6d9bc982335b67af31c40c58")
    }
}

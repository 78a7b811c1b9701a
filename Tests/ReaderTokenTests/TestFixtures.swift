import Foundation
import Encodings
@testable import ReaderToken

/// Test-only key material (generated with openssl for these tests; never used anywhere else).
enum Fixtures {
    static let sec1PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEINEOOcTXaL4SHz4UpEHCd/BHv1QfC4NxSzgrVaZi8BEFoAoGCCqGSM49
        AwEHoUQDQgAE198HuVkK9zxvttvCCaO/5XqMQrntE+V0kVv0nnfEbdYubWCtBU0J
        HhE5UZDkUc/aE8I/RmG0Mpr+03hQzZOPwg==
        -----END EC PRIVATE KEY-----

        """

    /// The same key as ``sec1PEM`` in PKCS#8 form.
    static let pkcs8PEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg0Q45xNdovhIfPhSk
        QcJ38Ee/VB8Lg3FLOCtVpmLwEQWhRANCAATX3we5WQr3PG+228IJo7/leoxCue0T
        5XSRW/Sed8Rt1i5tYK0FTQkeETlRkORRz9oTwj9GYbQymv7TeFDNk4/C
        -----END PRIVATE KEY-----

        """

    /// SPKI public key of ``sec1PEM`` as printed by `openssl ec -pubout`.
    static let publicPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE198HuVkK9zxvttvCCaO/5XqMQrnt
        E+V0kVv0nnfEbdYubWCtBU0JHhE5UZDkUc/aE8I/RmG0Mpr+03hQzZOPwg==
        -----END PUBLIC KEY-----
        """

    /// Private scalar of the fixture key, hex.
    static let privateScalarHex = "d10e39c4d768be121f3e14a441c277f047bf541f0b83714b382b55a662f01105"

    /// `openssl ecparam -name prime256v1 -genkey` output: EC PARAMETERS block, then SEC1 key.
    static let withParametersPEM = """
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIN8SZDvWBP4NwOnbzeXVx2tTblPHpj/duHhc3KgRQa5xoAoGCCqGSM49
        AwEHoUQDQgAEwkj4PeK2IQhhvMObY/MifcxZh/yCx8CeGUZf8vS6tIll3u7Gq5/G
        KHUqRk9g19K9k0NNpqdVWTDzpTl2wytljQ==
        -----END EC PRIVATE KEY-----
        """

    /// A P-384 SEC1 key, which must be rejected.
    static let p384PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MIGkAgEBBDBCsAK5FaB8LapsbJfcW0R/nfOioaBp2Qk3FeGz+J7w9U3E32lMjfwp
        qtUWWvj81gqgBwYFK4EEACKhZANiAATBa6UPPF1XftyscpjxAizQHP6EgWhTbJi1
        twvSXra3E2nfsN9MkVdlgIH4E0c3Xv1xuwqEbOaX7KUhsvtVXMSan+bXSpSxe4so
        i+0EWMjt4AcZAUimtyJw2IH8r3FH2fE=
        -----END EC PRIVATE KEY-----
        """

    static func signingKey() throws -> ReaderTokenSigningKey {
        try ReaderTokenSigningKey(pemRepresentation: sec1PEM)
    }

    static func minter(lifetimeSeconds: Int = 300) throws -> ReaderTokenMinter {
        try ReaderTokenMinter(
            configuration: ReaderTokenConfiguration(brandId: "KLMNOPQRST", keyId: "ABCDEFGHIJ", lifetimeSeconds: lifetimeSeconds),
            signingKey: signingKey()
        )
    }

    /// Splits a compact JWS into decoded header JSON, payload JSON, signature bytes and signing input.
    static func split(_ token: String) throws -> (header: String, payload: String, signature: Data, signingInput: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3,
              let header = Base64URL.decode(parts[0]),
              let payload = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2])
        else { throw FixtureError.malformedToken }
        return (String(decoding: header, as: UTF8.self), String(decoding: payload, as: UTF8.self), signature,
                parts[0] + "." + parts[1])
    }

    enum FixtureError: Error { case malformedToken }
}

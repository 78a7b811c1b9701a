import Foundation
import StrictJSON
import X509

/// The protected header of a list (JAdES baseline B as TS 119 602 profiles it): `alg`, the signer's certificate
/// chain in `x5c` (standard base64 DER, signer first), and a claimed signing time, `iat` (a NumericDate) or the older
/// `sigT` (RFC 3339, listed in `crit`). `crit` may name only `sigT`; `b64` (unencoded payloads) is refused; other
/// parameters (`typ`, `cty`, `kid`, `x5t#S256`, `x5t#o`, ...) are not used.
struct LoTEJWSHeader: Sendable {
    /// The critical header parameters this reader processes.
    static let understoodCritical: Set<String> = ["sigT"]

    let algorithm: LoTESignatureAlgorithm
    /// x5c, parsed; `certificates[0]` signed the list.
    let certificates: [Certificate]
    /// `iat`, else `sigT`: what the signer claims, never used to decide anything.
    let claimedSigningTime: Date

    init(_ bytes: [UInt8], limits: LoTELimits) throws(LoTEError) {
        func invalid(_ detail: String) -> LoTEError { LoTEError(.headerInvalid, detail) }
        let json: JSON
        do {
            json = try JSONParser.parse(bytes, limits: .init(maximumDepth: 8, maximumValues: 256))
        } catch {
            throw invalid("the protected header is not a strict JSON text: \(error)")
        }
        guard case .object(let members) = json else { throw invalid("the protected header is not a JSON object") }
        let header = Dictionary(members, uniquingKeysWith: { first, _ in first })

        guard case .string(let name)? = header["alg"] else { throw invalid("the header has no alg string") }
        guard let algorithm = LoTESignatureAlgorithm(rawValue: name) else {
            throw invalid("alg \"\(name.prefix(16))\" is not accepted (ES256/384/512, PS256/384/512, RS256/384/512 only)")
        }
        self.algorithm = algorithm
        if header["b64"] != nil { throw invalid("b64 is present: unencoded or detached payloads are not accepted") }

        if let crit = header["crit"] {
            guard case .array(let items) = crit, !items.isEmpty else { throw invalid("crit is not a non-empty array") }
            var seen = Set<String>()
            for item in items {
                guard case .string(let parameter) = item else { throw invalid("crit holds a non-string") }
                guard Self.understoodCritical.contains(parameter) else {
                    throw invalid("crit names \"\(parameter.prefix(32))\", a header parameter this reader does not process")
                }
                guard seen.insert(parameter).inserted else { throw invalid("crit names \"\(parameter)\" twice") }
                guard header[parameter] != nil else { throw invalid("crit names \"\(parameter)\", which the header lacks") }
            }
        }

        guard case .array(let chain)? = header["x5c"] else { throw invalid("the header has no x5c array: no signing certificate") }
        guard (1...limits.maximumX5CLength).contains(chain.count) else {
            throw invalid("x5c holds \(chain.count) certificates; 1 to \(limits.maximumX5CLength) are accepted")
        }
        var certificates: [Certificate] = []
        for (index, item) in chain.enumerated() {
            guard case .string(let text) = item, text.utf8.count <= (limits.maximumCertificateBytes + 2) / 3 * 4,
                  let der = Data(base64Encoded: text)
            else { throw invalid("x5c[\(index)] is not standard base64 of at most \(limits.maximumCertificateBytes) bytes") }
            do {
                certificates.append(try Certificate(derEncoded: Array(der)))
            } catch {
                throw invalid("x5c[\(index)] is not a DER X.509 certificate")
            }
        }
        self.certificates = certificates

        var claimed: Date?
        if let iat = header["iat"] {
            guard case .int(let seconds) = iat else { throw invalid("iat is not an integer NumericDate") }
            claimed = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        if let sigT = header["sigT"] {
            guard case .string(let text) = sigT, let date = LoTEDateTime.parseRFC3339(text) else {
                throw invalid("sigT is not an RFC 3339 date-time string")
            }
            claimed = claimed ?? date
        }
        guard let claimed else { throw invalid("the header claims no signing time (iat or sigT)") }
        claimedSigningTime = claimed
    }
}

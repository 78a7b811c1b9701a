import Crypto
import Encodings
import Foundation
import MDoc
import SDJWT
import StrictJSON

/// The claims the verifier itself reads from the issuer-signed payload (never from a disclosure: those names are
/// refused there), each checked for its type: `vct`, `iss`, `iat`, `nbf`, `exp`, `cnf.jwk`, `status.status_list`.
struct ClaimsReading {
    var result: SDJWTVCCheckResult
    var issuedAt: Date?
    var notBefore: Date?
    var expiresAt: Date?
    var hasConfirmation = false
    var holderKey: P256.Signing.PublicKey?
    var statusReference: SDJWTVCStatusReference?

    init(_ payload: JSON) {
        let id = SDJWTVCCheckID.claims
        result = .passed(id, nil)
        func malformed(_ detail: String) -> SDJWTVCCheckResult { .failed(id, FailureCode(.claimsMalformed), detail) }
        var problems: [SDJWTVCCheckResult] = []
        if payload[member: "vct"]?.stringValue.map({ !$0.isEmpty }) != true {
            problems.append(.failed(id, FailureCode(.vctMissing), "vct is missing or not a non-empty string"))
        }
        if let iss = payload[member: "iss"], iss.stringValue == nil { problems.append(malformed("iss is not a string")) }
        for (name, slot) in [("iat", \ClaimsReading.issuedAt), ("nbf", \ClaimsReading.notBefore), ("exp", \ClaimsReading.expiresAt)] {
            guard let value = payload[member: name] else { continue }
            guard let seconds = KeyBindingVerifier.numericDate(value) else {
                problems.append(malformed("\(name) is not a NumericDate"))
                continue
            }
            self[keyPath: slot] = Date(timeIntervalSince1970: seconds)
        }
        if let cnf = payload[member: "cnf"] {
            hasConfirmation = true
            if let jwk = cnf[member: "jwk"], let key = P256PublicJWK.key(jwk) {
                holderKey = key
            } else {
                problems.append(malformed("cnf has no jwk that is a P-256 public key"))
            }
        }
        if let status = payload[member: "status"] {
            if case .object = status, let list = status[member: "status_list"], case .int(let index)? = list[member: "idx"], index >= 0,
               let uri = list[member: "uri"]?.stringValue, !uri.isEmpty, uri.utf8.count <= 2_048 {
                statusReference = SDJWTVCStatusReference(uri: uri, index: UInt64(index))
            } else {
                problems.append(malformed("status has no status_list {idx: non-negative integer, uri: string}"))
            }
        }
        if let first = problems.first { result = first }
        else { result = .passed(id, "vct \"\(payload[member: "vct"]?.stringValue?.prefix(128) ?? "")\"") }
    }

    /// `sdjwt.validity`: `nbf` and `exp` against `now`, `skew` either way; not applicable without either.
    func validity(at now: Date, skew: TimeInterval) -> SDJWTVCCheckResult {
        let id = SDJWTVCCheckID.validity
        if let expiresAt, expiresAt.addingTimeInterval(skew) <= now {
            return .failed(id, FailureCode(.expired), "exp \(RFC3339Timestamp.string(expiresAt)) has passed (clock skew \(Int(skew)) s)")
        }
        if let notBefore, notBefore > now.addingTimeInterval(skew) {
            return .failed(id, FailureCode(.notYetValid), "nbf \(RFC3339Timestamp.string(notBefore)) is in the future (clock skew \(Int(skew)) s)")
        }
        if expiresAt == nil && notBefore == nil {
            return .notApplicable(id, "the credential has neither nbf nor exp")
        }
        return .passed(id, expiresAt.map { "valid until \(RFC3339Timestamp.string($0))" } ?? "valid from \(RFC3339Timestamp.string(notBefore!))")
    }
}

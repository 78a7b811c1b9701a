/// Why a list of trusted entities was refused for its signer's revocation: `CERTIFICATE_REVOKED`, or under
/// `crl.mode` `enforce` the `CRL_*` code of an undetermined outcome.
public struct LoTESignerRevocation: Error, Sendable, CustomStringConvertible {
    public let code: String
    public let detail: String

    public var description: String { "\(code): \(detail)" }
}

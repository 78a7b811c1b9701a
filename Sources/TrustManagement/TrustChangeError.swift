import TrustLists

/// Why a change to the trust set was refused. Nothing changed.
public enum TrustChangeError: Error, Sendable, CustomStringConvertible {
    /// The certificate is not a usable IACA (not a CA, no keyCertSign, expired).
    case invalid(String)
    /// The input is not a certificate at all: DER (or the DER in PEM) that does not parse as X.509.
    case unparsable(String)
    /// The request names the same certificate twice.
    case duplicate([String])
    case alreadyPresent([String])
    case notFound(String)
    /// The change would leave no trusted IACA, and the caller did not say that is intended.
    case wouldBeEmpty
    /// A VICAL that cannot be imported (signature, chain, dates, rollback).
    case vical(VICALError)
    /// A list of trusted entities that cannot be imported (signature, signer, content, dates, sequence regression).
    case lote(LoTEError)
    /// The directory could not be written; nothing changed.
    case storage(String)
    /// The shared store (the database) could not be reached; nothing changed.
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalid(let reason), .unparsable(let reason): return reason
        case .duplicate(let fingerprints): return "the request lists the same certificate twice: " + fingerprints.joined(separator: ", ")
        case .alreadyPresent(let fingerprints): return "already trusted: " + fingerprints.joined(separator: ", ")
        case .notFound(let fingerprint): return "no trusted IACA with SHA-256 \(fingerprint)"
        case .wouldBeEmpty: return "the change would leave no trusted IACA; say allowEmpty to do it anyway"
        case .vical(let error): return error.detail
        case .lote(let error): return error.description
        case .storage(let reason): return "the trust directory could not be written: \(reason)"
        case .unavailable(let reason): return "the trust set could not be changed: \(reason)"
        }
    }
}

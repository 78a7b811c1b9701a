import Foundation
import X509

/// `mso.status`: the document's status on the lists its MSO names (ISO 18013-5 2nd edition 12.3.6), from the
/// evidence the caller resolved beforehand. Revoked beats suspended beats unknown; both references must pass.
struct StatusCheck: DocumentCheck {
    let id = VerificationCheckID.msoStatus

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        guard let references = context.mso.statusReferences, !references.isEmpty else {
            return .notApplicable("the MSO has no status entry")
        }
        let policy = context.options.statusPolicy
        guard policy.mode != .off else { return .notApplicable("status checking is off (status.mode)") }
        // The same rule that decided which lists were fetched (MDocVerifier.prepare): a document that is not valid as
        // issued fails on that check, and its MSO's references are not the issuer's word, so none was looked up.
        if let reason = context.notValidAsIssuedReason {
            return .notApplicable("not looked up: the document is not valid as issued (\(reason))")
        }
        var findings: [(code: VerificationErrorCode?, detail: String)] = []
        if let list = references.statusList {
            let evidence = context.options.statusEvidence[.statusList(list)] ?? .unknown("the status list was not resolved")
            findings.append(Self.judge(evidence, certificate: list.certificate, context: context,
                                       what: "status list \(Self.host(list.uri)) index"))
        }
        if let list = references.identifierList {
            let evidence = context.options.statusEvidence[.identifierList(list)]
                ?? .unknown("the identifier list was not resolved")
            findings.append(Self.judge(evidence, certificate: list.certificate, context: context,
                                       what: "identifier list \(Self.host(list.uri))"))
        }
        let detail = findings.map(\.detail).joined(separator: "; ")
        let codes = findings.compactMap(\.code)
        let code: VerificationErrorCode? = codes.contains(.statusRevoked) ? .statusRevoked
            : codes.contains(.statusSuspended) ? .statusSuspended : codes.first
        guard let code else { return .passed(detail) }
        if policy.mode == .warn || (code == .statusUnknown && policy.unknown == .warn) {
            return .warning(code, detail)
        }
        return .failed(code, detail)
    }

    /// One reference's verdict: nil code when valid.
    static func judge(_ evidence: StatusEvidence, certificate: [UInt8]?, context: DocumentContext, what: String)
        -> (code: VerificationErrorCode?, detail: String)
    {
        if case .unknown(let reason) = evidence.finding { return (.statusUnknown, "\(what): unknown (\(reason))") }
        if let signer = evidence.signerCertificate, let ds = context.chain.documentSigner,
           (try? Certificate(derEncoded: signer)) == ds {
            return (.statusUnknown, "\(what): unknown (the list is signed by the document signer itself)")
        }
        switch evidence.signerTrust {
        case .msoCertificate where certificate != nil:
            break
        case .anchor(let sha256) where certificate == nil && sha256 == context.chain.anchor?.sha256:
            break
        default:
            return (.statusUnknown, "\(what): unknown (the list signer does not chain to "
                + (certificate == nil ? "the document's IACA" : "the MSO's status certificate") + ")")
        }
        let source = evidence.source.isEmpty ? "" : ", \(evidence.source)"
        switch evidence.finding {
        case .status(0): return (nil, "\(what): valid\(source)")
        case .status(1): return (.statusRevoked, "\(what): revoked (INVALID)\(source)")
        case .status(2): return (.statusSuspended, "\(what): suspended\(source)")
        case .status(let value): return (.statusUnknown, "\(what): unknown (status value \(value))\(source)")
        case .identifierListed(true): return (.statusRevoked, "\(what): revoked (identifier listed)\(source)")
        case .identifierListed(false): return (nil, "\(what): not listed\(source)")
        case .unknown(let reason): return (.statusUnknown, "\(what): unknown (\(reason))")
        }
    }

    /// The URI's host, for details and logs (the index stays out of them).
    static func host(_ uri: String) -> String {
        URLComponents(string: uri)?.host ?? "(invalid URI)"
    }
}

import MDoc
import SDJWTVC

/// How the OpenID4VP verifier has an SD-JWT VC presentation verified: the string as received, the nonce and the
/// audience its KB-JWT must name, its credential query (nil offline without one), and the transaction data its KB-JWT
/// must approve (nil when the request carried none). The caller injects it, choosing the issuer trust set, the time,
/// the `iat` window and revocation.
public typealias SDJWTVCCheck = @Sendable (_ presentation: String, _ nonce: String, _ audience: String,
                                           _ query: SDJWTVCQuery?, _ transactionData: TransactionDataExpectation?) async -> SDJWTVCResult

/// Verifies a wallet's answer against its session: first the checks OpenID4VP 1.0 leaves to the verifier
/// (``OpenID4VPPresentations``: decryption, credential ids, counts, the response mode), then each presentation with
/// the check of its credential format (`mso_mdoc`: a DeviceResponse over the session's transcript; `dc+sd-jwt`: an
/// SD-JWT VC whose KB-JWT names the session's nonce and audience), merged into one verdict whose documents say which
/// credential query they answer, and every transaction data entry approved exactly once (``TransactionDataApprovals``).
/// The per-format checks are injected: the caller decides trust, time and revocation.
public struct OpenID4VPVerifier: Sendable {
    let mdoc: DeviceResponseCheck
    let sdJwtVc: SDJWTVCCheck?

    public init(mdoc: @escaping DeviceResponseCheck, sdJwtVc: SDJWTVCCheck? = nil) {
        self.mdoc = mdoc
        self.sdJwtVc = sdJwtVc
    }

    public func verify(_ answer: WalletAnswer, session: OpenID4VPSession) async -> OpenID4VPVerdict {
        let presentations: OpenID4VPPresentations
        do throws(ResponseFailure) {
            presentations = try OpenID4VPPresentations(answer, session: session)
        } catch {
            return OpenID4VPVerdict(report: .failure(error.code, error.detail), credentialIds: [])
        }
        var documents: [OpenID4VPVerdict.Document] = []
        for presentation in presentations.presentations {
            switch presentation.content {
            case .mdoc(let response, let requested):
                let report = await mdoc(response, session.transcript, requested)
                // A presentation that failed as a whole (no document report) decides the answer.
                guard !report.documents.isEmpty else { return OpenID4VPVerdict(report: report, credentialIds: []) }
                documents += report.documents.map { .init(credentialId: presentation.credentialId, report: .mdoc($0)) }
            case .sdJwtVc(let text, let query):
                guard let sdJwtVc else {
                    return OpenID4VPVerdict(report: .failure(.vpTokenMalformed, "SD-JWT VC presentations are not verified here"), credentialIds: [])
                }
                let expectation = session.query.credential(presentation.credentialId).flatMap { credential in
                    session.transactionData?.expectation(for: credential)
                }
                switch await sdJwtVc(text, session.nonce, session.keyBindingAudience, query, expectation) {
                case .failure(let code, let detail):
                    return OpenID4VPVerdict(report: .failure(code, "the presentation for \"\(presentation.credentialId)\": \(detail)"),
                                            credentialIds: [])
                case .report(let report):
                    documents.append(.init(credentialId: presentation.credentialId, report: .sdJwtVc(report)))
                }
            }
        }
        if let transactionData = session.transactionData {
            switch TransactionDataApprovals.judge(documents, transactionData: transactionData) {
            case .success(let judged): documents = judged
            case .failure(let failure): return OpenID4VPVerdict(report: .failure(failure.code, failure.detail), credentialIds: [])
            }
        }
        return OpenID4VPVerdict(documents: documents)
    }
}

extension OpenID4VPSession {
    /// The `aud` a KB-JWT must carry (OpenID4VP 1.0 B.3.6, A.4): `origin:<origin>` over the Digital Credentials API,
    /// signed requests included; the full client id, with its prefix, cross-device.
    public var keyBindingAudience: String {
        switch flow {
        case .digitalCredentialsAPI: return "origin:" + (origin ?? "")
        case .crossDevice: return clientId ?? ""
        }
    }
}

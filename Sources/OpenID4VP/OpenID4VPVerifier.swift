import MDoc

/// Verifies a wallet's answer against its session: first the checks OpenID4VP 1.0 leaves to the verifier
/// (``OpenID4VPPresentations``: decryption, credential ids, counts, the response mode), then each presentation with
/// the check of its credential format, merged into one report whose documents say which credential query they
/// answer. The per-format checks are injected: the caller decides the trust set, the time and revocation.
public struct OpenID4VPVerifier: Sendable {
    /// Verifies one `mso_mdoc` presentation (a DeviceResponse) over the session's transcript, for the document its
    /// credential query requested (nil offline without a query).
    let mdoc: DeviceResponseCheck

    public init(mdoc: @escaping DeviceResponseCheck) {
        self.mdoc = mdoc
    }

    public func verify(_ answer: WalletAnswer, session: OpenID4VPSession) async -> OpenID4VPVerdict {
        let presentations: OpenID4VPPresentations
        do throws(ResponseFailure) {
            presentations = try OpenID4VPPresentations(answer, session: session)
        } catch {
            return OpenID4VPVerdict(report: .failure(error.code, error.detail), credentialIds: [])
        }
        let transcript = session.transcript
        var documents: [DocumentReport] = []
        var credentialIds: [String] = []
        for presentation in presentations.presentations {
            let report = await mdoc(presentation.deviceResponse, transcript, presentation.requested)
            // A presentation that failed as a whole (no document report) decides the answer.
            guard !report.documents.isEmpty else { return OpenID4VPVerdict(report: report, credentialIds: []) }
            documents += report.documents
            credentialIds += Array(repeating: presentation.credentialId, count: report.documents.count)
        }
        return OpenID4VPVerdict(report: VerificationReport(documents: documents), credentialIds: credentialIds)
    }
}

/// The outcome of one answer: the report, and for each of its documents (in order) the DCQL credential id it answered.
public struct OpenID4VPVerdict: Sendable {
    public let report: VerificationReport
    public let credentialIds: [String]

    public init(report: VerificationReport, credentialIds: [String]) {
        self.report = report
        self.credentialIds = credentialIds
    }
}

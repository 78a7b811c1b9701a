import CBOR
import CertificateRevocation
import Foundation
import TrustStore
import X509

/// Verifies ISO 18013-5 DeviceResponses against a trust snapshot and reports every check of every document.
///
/// Every check that can run does run; a failure never hides the checks after it.
public struct MDocVerifier: Sendable {
    public let trust: TrustSnapshot

    /// The checks in reporting order.
    static let checks: [any DocumentCheck] = [
        CertificateChainCheck(), CertificateProfileCheck(), CertificateRevocationCheck(), IssuerSignatureCheck(), DocTypeCheck(),
        ValueDigestsCheck(), MSOValidityCheck(), MSODeviceKeyCheck(), DeviceAuthenticationCheck(), KeyAuthorizationsCheck(), StatusCheck(),
        RequestedElementsCheck(), TrustedAuthoritiesCheck(),
    ]

    public init(trust: TrustSnapshot) {
        self.trust = trust
    }

    /// Parses and verifies an encoded DeviceResponse. `sessionTranscript` is the SessionTranscript CBOR exactly as
    /// both sides built it (not tag-24 wrapped).
    public func verify(deviceResponse bytes: [UInt8], sessionTranscript: [UInt8], options: VerificationOptions)
        -> VerificationReport
    {
        let response: DeviceResponse
        do {
            response = try DeviceResponse(bytes: bytes)
        } catch {
            return .failure(error.code, error.description)
        }
        return verify(response, sessionTranscript: sessionTranscript, options: options)
    }

    /// Verifies an already parsed DeviceResponse with the status evidence in `options` (none: `mso.status` says
    /// what is missing): ``prepare(_:sessionTranscript:options:)`` then ``finish(_:statusEvidence:)``.
    public func verify(_ response: DeviceResponse, sessionTranscript: [UInt8], options: VerificationOptions)
        -> VerificationReport
    {
        finish(prepare(response, sessionTranscript: sessionTranscript, options: options), statusEvidence: options.statusEvidence)
    }

    /// The first half of one verification: each document's chain, digests, device key and issuer signature are
    /// computed once, and the status references worth fetching are known (``PreparedResponse/statusReferences``).
    /// Resolve those, then ``finish(_:statusEvidence:)``: nothing is computed twice.
    public func prepare(_ response: DeviceResponse, sessionTranscript: [UInt8], options: VerificationOptions)
        -> PreparedResponse
    {
        if let problem = Self.sessionTranscriptProblem(sessionTranscript) {
            return PreparedResponse(transcriptProblem: problem, contexts: [], statusReferences: [])
        }
        let zkContexts = response.zkDocuments.map {
            ZKDocumentContext(document: $0, sessionTranscript: sessionTranscript, options: options, trust: trust)
        }
        var references = Set<StatusReferenceKey>()
        var links: [ChainRevocationChecker.Link] = []
        let contexts = response.documents.map { document in
            var context = DocumentContext(document: document, sessionTranscript: sessionTranscript, options: options, trust: trust)
            context.settleIssuerChecks()
            if context.notValidAsIssuedReason == nil {
                if let named = document.mobileSecurityObject.statusReferences { references.formUnion(named.keys) }
                if options.certificateRevocation.mode != .off {
                    for link in context.chain.revocationLinks ?? [] where !links.contains(where: { $0.certificate == link.certificate }) {
                        links.append(link)
                    }
                }
            }
            return context
        }
        for context in zkContexts {
            for link in context.revocationLinks ?? [] where !links.contains(where: { $0.certificate == link.certificate }) {
                links.append(link)
            }
        }
        return PreparedResponse(transcriptProblem: nil, contexts: contexts, statusReferences: references, zkContexts: zkContexts,
                                revocationLinks: links)
    }

    /// The second half: every check of every document, with the status evidence resolved for
    /// ``PreparedResponse/statusReferences``.
    ///
    /// `zeroKnowledgeOutcomes` are those of ``PreparedResponse/zeroKnowledgeProofs``, in order (nil: a proof
    /// verified; otherwise why not). Without them the proofs run here, on the caller's thread.
    public func finish(_ prepared: PreparedResponse, statusEvidence: [StatusReferenceKey: StatusEvidence],
                       zeroKnowledgeOutcomes: [String?]? = nil,
                       certificateRevocation: [Certificate: CertificateRevocationOutcome]? = nil) -> VerificationReport {
        if let problem = prepared.transcriptProblem { return .failure(.sessionTranscriptMalformed, problem) }
        var documents = prepared.contexts.map { context in
            var context = context
            context.options.statusEvidence = statusEvidence
            if let certificateRevocation { context.options.certificateRevocationEvidence = certificateRevocation }
            return verify(context)
        }
        guard !prepared.zkContexts.isEmpty else { return VerificationReport(documents: documents) }
        var outcomes = (zeroKnowledgeOutcomes ?? prepared.zeroKnowledgeProofs.map { $0.run() })[...]
        for context in prepared.zkContexts {
            guard context.proofJob != nil else {
                documents.append(context.report(proofFailure: nil, certificateRevocation: certificateRevocation ?? [:]))
                continue
            }
            documents.append(context.report(proofFailure: .some(outcomes.popFirst() ?? "the proof's outcome is missing"),
                                            certificateRevocation: certificateRevocation ?? [:]))
        }
        return VerificationReport(documents: documents)
    }

    /// Why `bytes` is not a SessionTranscript (ISO 18013-5 §9.1.5.1: an array of DeviceEngagementBytes,
    /// EReaderKeyBytes and Handover), or nil. SessionTranscriptBytes (the transcript wrapped in tag 24) is named as
    /// such: the device authentication structures embed the transcript itself, so it would only fail later as a
    /// signature or MAC that does not verify.
    public static func sessionTranscriptProblem(_ bytes: [UInt8]) -> String? {
        let item: CBORItem
        do {
            item = try CBORDecoder(limits: DeviceResponse.decodingLimits).decode(bytes)
        } catch {
            return "SessionTranscript is not one CBOR item: \(error)"
        }
        if let tagged = item.tagged, tagged.tag == 24 {
            return "SessionTranscript is wrapped in tag 24 (that is SessionTranscriptBytes): send the array inside it"
        }
        guard let elements = item.arrayValue else { return "SessionTranscript is not a CBOR array" }
        guard elements.count == 3 else {
            return "SessionTranscript has \(elements.count) elements; it is [DeviceEngagementBytes, EReaderKeyBytes, Handover]"
        }
        return nil
    }

    func verify(_ context: DocumentContext) -> DocumentReport {
        let results = Self.checks.map { (context.settled($0.id) ?? $0.evaluate(context)).result(for: $0.id) }
        let verified = !results.contains { $0.status == .failed }
        return DocumentReport(
            docType: context.document.docType,
            verified: verified,
            claims: Self.claims(context, documentVerified: verified),
            issuer: Self.issuerSummary(context.chain),
            validityInfo: context.mso.validityInfo,
            deviceAuthentication: Self.deviceAuthenticationKind(context.document),
            checks: results,
            notReturned: RequestedElementsCheck.notReturned(context.document, requested: context.options.requestedItems),
            zeroKnowledge: nil)
    }

    /// The claims of a document. When the request is known, an element it did not ask for is left out entirely:
    /// its value is never handed on, whatever the caller does with the report.
    static func claims(_ context: DocumentContext, documentVerified: Bool) -> [Claim] {
        var claims: [Claim] = []
        let docType = context.document.docType
        let requested = context.options.requestedItems
        func wanted(_ nameSpace: String, _ identifier: String) -> Bool {
            requested?.isRequested(docType: docType, nameSpace: nameSpace, identifier: identifier) ?? true
        }
        // The digest results are in the same order as the items (DigestEvaluation walks them the same way).
        var position = -1
        for (nameSpace, items) in context.document.issuerSigned.nameSpaces {
            for item in items {
                position += 1
                guard wanted(nameSpace, item.elementIdentifier) else { continue }
                let matched = context.digests.result(at: position) == .matched
                claims.append(Claim(nameSpace: nameSpace, identifier: item.elementIdentifier,
                                    value: ElementValue(item.elementValue), source: .issuerSigned,
                                    verified: documentVerified && matched))
            }
        }
        for (nameSpace, elements) in context.document.deviceSigned?.nameSpaces ?? [] {
            for element in elements where wanted(nameSpace, element.identifier) {
                claims.append(Claim(nameSpace: nameSpace, identifier: element.identifier,
                                    value: ElementValue(element.value), source: .deviceSigned,
                                    verified: documentVerified))
            }
        }
        return claims
    }

    static func issuerSummary(_ chain: IssuerChain) -> IssuerSummary {
        let ds = chain.documentSigner
        let country = chain.documentSignerCountry ?? chain.anchor?.country
        return IssuerSummary(
            documentSignerSubject: chain.documentSignerSubject, iacaSubject: chain.anchor?.subject,
            iacaSHA256: chain.anchor?.sha256, country: country,
            documentSignerNotBefore: ds?.notValidBefore, documentSignerNotAfter: ds?.notValidAfter)
    }

    static func deviceAuthenticationKind(_ document: Document) -> DeviceAuthenticationKind? {
        switch document.deviceSigned?.deviceAuth {
        case .signature: return .signature
        case .mac: return .mac
        case nil: return nil
        }
    }
}

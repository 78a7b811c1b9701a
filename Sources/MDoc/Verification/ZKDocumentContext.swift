import CBOR
import CertificateRevocation
import Foundation
import TrustStore
import X509
import ZKMdoc

/// One document from `zkDocuments`, judged: its document signer's chain under the same rules as any DS (the IACA's
/// docType scope included), the verifier's own rules about the proof (`zk.system`, `zk.nameSpace`, `zk.timestamp`),
/// and the proof check itself, prepared but not run: a proof costs about half a second of CPU, so it is run (by
/// ``MDocVerifier/finish(_:statusEvidence:zeroKnowledgeOutcomes:)``'s caller) only for a document that passes every
/// other check.
struct ZKDocumentContext: Sendable {
    let document: ZkDocument
    let chain: IssuerChain
    /// The namespace the docType fixes; nil when verifierd reads no ZK document of that docType.
    let nameSpace: String?
    let system: ZKSystem?
    /// The checks settled before the proof, in report order.
    let settled: [CheckResult]
    /// The proof check to run; nil when an earlier check failed, with the reason in ``proofNotRun``.
    let proofJob: ZKProofJob?
    let proofNotRun: CheckOutcome?
    let requestedItems: RequestedItems?
    let revocationPolicy: CertificateRevocationPolicy
    /// The path's certificates to check against CRLs: only when the chain holds and the profile does not fail (the
    /// issuer is known; the proof itself is not needed to look a certificate up).
    let revocationLinks: [ChainRevocationChecker.Link]?

    init(document: ZkDocument, sessionTranscript: [UInt8], options: VerificationOptions, trust: TrustSnapshot) {
        self.document = document
        requestedItems = options.requestedItems
        chain = IssuerChainCache.shared.chain(x5chain: document.certificates.map { $0[...] }, trust: trust, policy: options.chainPolicy)
        let profileMode = chain.anchor.flatMap { options.profileChecksByAnchor[$0.sha256] } ?? options.profileChecks
        var outcomes: [(VerificationCheckID, CheckOutcome)] = [
            (.issuerCertificateChain, CertificateChainCheck.evaluate(chain, docTypes: [document.docType], at: options.verificationTime,
                                                                     profileMode: profileMode)),
            (.issuerCertificateProfile, chain.documentSigner == nil
                ? .notApplicable("no document signer certificate to profile")
                : CertificateProfileCheck.outcome(chain.profileFindings, countryMismatch: false, profileMode: profileMode)),
        ]
        let zk = options.zeroKnowledge
        system = zk?.system(named: document.zkSystemId)
        outcomes.append((.zkSystem, Self.systemOutcome(document, zk: zk, system: system)))
        nameSpace = ZKNameSpaces.nameSpace(for: document.docType)
        outcomes.append((.zkNameSpace, Self.nameSpaceOutcome(document, fixed: nameSpace)))
        outcomes.append((.zkTimestamp, Self.timestampOutcome(document, zk: zk, now: options.verificationTime)))
        settled = outcomes.map { $0.1.result(for: $0.0) }
        revocationPolicy = options.certificateRevocation
        let issuerHolds = settled.prefix(2).allSatisfy { $0.status != .failed } && settled.first?.status != .notApplicable
        revocationLinks = issuerHolds && options.certificateRevocation.mode != .off ? chain.revocationLinks : nil

        let failed = settled.filter { $0.status == .failed }.map(\.id.rawValue)
        if zk != nil, let system, failed.isEmpty {
            if let documentSigner = chain.documentSigner, let key = ZkDocumentVerifier.issuerKey(documentSigner) {
                proofJob = ZKProofJob(proof: document.proof,
                                      statement: ZkDocumentVerifier.statement(document, issuerKey: key, sessionTranscript: sessionTranscript),
                                      system: system)
                proofNotRun = nil
            } else {
                proofJob = nil
                proofNotRun = .failed(.zkProofInvalid, "the document signer's key is not on P-256, the only curve the circuits verify")
            }
        } else {
            proofJob = nil
            proofNotRun = .notApplicable("not run: \(failed.joined(separator: ", ")) failed (a proof is checked only for a "
                                         + "document that passes every other check)")
        }
    }

    static func systemOutcome(_ document: ZkDocument, zk: ZkDocumentVerifier?, system: ZKSystem?) -> CheckOutcome {
        guard let zk, !zk.systems.isEmpty else {
            return .failed(.zkSystemNotAccepted, "this verifier accepts no zero-knowledge proof systems (zk is not configured)")
        }
        guard let system else {
            return .failed(.zkSystemNotAccepted, "zkSystemId \"\(document.zkSystemId.prefix(80))\" names no accepted system")
        }
        guard system.provesEveryElement(of: document) else {
            return .failed(.zkSystemNotAccepted, "system \(system.id.prefix(16)) proves \(system.spec.attributeCount) element(s); "
                           + "the document discloses \(document.elements.count)")
        }
        return .passed("longfellow-libzk-v1 version \(system.spec.version), \(system.spec.attributeCount) element(s), circuit "
                       + system.spec.circuitHash)
    }

    static func nameSpaceOutcome(_ document: ZkDocument, fixed: String?) -> CheckOutcome {
        guard let fixed else {
            return .failed(.zkDocTypeUnsupported, "no namespace is known for docType \(document.docType.prefix(80)): "
                           + "a proof does not bind the namespace, so verifierd reads only docTypes it can fix it for")
        }
        guard document.nameSpace == fixed else {
            return .failed(.zkNameSpaceMismatch, "the elements are named under \(document.nameSpace.prefix(80)); "
                           + "docType \(document.docType) fixes \(fixed)")
        }
        return .passed(fixed)
    }

    static func timestampOutcome(_ document: ZkDocument, zk: ZkDocumentVerifier?, now: Date) -> CheckOutcome {
        guard let zk else { return .notApplicable("zk is not configured") }
        guard zk.isFresh(document.timestamp, now: now) else {
            return .failed(.zkTimestampNotFresh, "timestamp \(document.timestamp) is not within \(Int(zk.maximumAge)) s before now "
                           + "and the end of today (UTC), give or take \(Int(zk.clockSkew)) s")
        }
        return .passed(document.timestamp)
    }

    /// The document's report, with the proof check's failure (nil: it verified) when it ran.
    func report(proofFailure: String??, certificateRevocation evidence: [Certificate: CertificateRevocationOutcome] = [:]) -> DocumentReport {
        let proof: CheckOutcome
        switch (proofNotRun, proofFailure) {
        case (let notRun?, _): proof = notRun
        case (nil, .some(nil)): proof = .passed("the proof proves the statement: issuer signature, disclosed elements in order, "
                                                + "validity at the timestamp, device signature over this SessionTranscript")
        case (nil, .some(let failure?)): proof = .failed(.zkProofInvalid, failure)
        case (nil, nil): proof = .notApplicable("not run")
        }
        let fixedNameSpace = nameSpace ?? document.nameSpace
        let disclosed = document.elements.map { ElementReference(nameSpace: fixedNameSpace, identifier: $0.identifier) }
        let requestOutcome = requestedItems.map {
            RequestedElementsCheck.outcome(docType: document.docType, disclosed: disclosed, requested: $0)
        } ?? .notApplicable("the caller did not give the request")
        let revocation: CheckOutcome
        if revocationPolicy.mode == .off {
            revocation = .notApplicable("CRL checking is off (crl.mode)")
        } else if let links = revocationLinks {
            revocation = CertificateRevocationCheck.outcome(links.map { evidence[$0.certificate]
                ?? .undetermined(.unavailable, detail: "\($0.certificate.subject): the CRL was not resolved") }, policy: revocationPolicy)
        } else {
            revocation = .notApplicable("not looked up: the issuer's chain does not hold")
        }
        let checks = Array(settled.prefix(2)) + [revocation.result(for: .issuerCertificateRevocation)] + settled.dropFirst(2) + [
            proof.result(for: .zkProof),
            CheckOutcome.notApplicable("a zero-knowledge proof hides the MSO and its status reference: revocation is not checked")
                .result(for: .msoStatus),
            requestOutcome.result(for: .requestElements),
            TrustedAuthoritiesCheck.outcome(docType: document.docType, presented: chain.presentedAuthorityKeyIdentifiers,
                                            requested: requestedItems).result(for: .requestTrustedAuthorities),
        ]
        let verified = !checks.contains { $0.status == .failed }
        let claims = zip(document.elements, disclosed).map { element, reference in
            Claim(nameSpace: reference.nameSpace, identifier: reference.identifier, value: ElementValue(element.item),
                  source: .issuerSigned, verified: verified)
        }
        return DocumentReport(
            docType: document.docType, verified: verified, claims: claims, issuer: MDocVerifier.issuerSummary(chain),
            validityInfo: nil, deviceAuthentication: verified ? .signature : nil, checks: checks,
            notReturned: RequestedElementsCheck.notReturned(docType: document.docType, disclosed: disclosed, requested: requestedItems),
            zeroKnowledge: ZeroKnowledgeSummary(system: document.zkSystemId, circuitHash: system?.spec.circuitHash,
                                                version: system?.spec.version, timestamp: document.timestamp))
    }
}

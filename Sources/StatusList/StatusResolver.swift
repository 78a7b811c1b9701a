import CertificateRevocation
import Foundation
import MDoc
import SDJWTVC
import TrustStore

/// Resolves every status reference of a DeviceResponse into evidence for the `mso.status` check, concurrently.
public struct StatusResolver: Sendable {
    public let cache: StatusListCache
    /// Where the CRLs of list signers' chains come from, and how they apply: a list whose signer is revoked (or, under
    /// `enforce`, undetermined) answers nothing.
    public let crls: (any CRLSource)?
    public let crlPolicy: CertificateRevocationPolicy
    /// The clock CRLs are judged at.
    public let now: (@Sendable () -> Date)?

    public init(cache: StatusListCache, crls: (any CRLSource)? = nil, crlPolicy: CertificateRevocationPolicy = .init(mode: .off),
                now: (@Sendable () -> Date)? = nil) {
        self.cache = cache
        self.crls = crls
        self.crlPolicy = crlPolicy
        self.now = now
    }

    /// Why the list's signer may not be relied on by CRL (nil: it may).
    func signerRevocationProblem(_ list: VerifiedStatusList, at time: Date) async -> String? {
        guard let crls, crlPolicy.mode != .off, !list.signerLinks.isEmpty else { return nil }
        let outcomes = await ChainRevocationChecker.outcomes(list.signerLinks, source: crls, at: now?() ?? time)
        switch CertificateRevocationVerdict.judge(outcomes, policy: crlPolicy) {
        case .failed(let code, let detail): return "the list's signer chain: \(code): \(detail)"
        case .passed, .warning, .notApplicable: return nil
        }
    }

    /// Evidence for each of `references`, fetched concurrently. Pass only the references of authentic MSOs
    /// (`PreparedResponse.statusReferences`), never every URI a DeviceResponse names.
    public func evidence(for references: Set<StatusReferenceKey>, trust: TrustSnapshot, now: Date) async
        -> [StatusReferenceKey: StatusEvidence]
    {
        guard !references.isEmpty else { return [:] }
        return await withTaskGroup(of: (StatusReferenceKey, StatusEvidence).self) { group in
            for reference in references {
                group.addTask { (reference, await evidence(for: reference, trust: trust, now: now)) }
            }
            var result: [StatusReferenceKey: StatusEvidence] = [:]
            for await (key, evidence) in group { result[key] = evidence }
            return result
        }
    }

    public func evidence(for reference: StatusReferenceKey, trust: TrustSnapshot, now: Date) async -> StatusEvidence {
        let key: StatusListCache.Key
        switch reference {
        case .statusList(let list): key = .init(uri: list.uri, kind: .statusList, certificate: list.certificate)
        case .identifierList(let list): key = .init(uri: list.uri, kind: .identifierList, certificate: list.certificate)
        }
        let (result, source) = await cache.list(key, trust: trust, now: now)
        switch result {
        case .failure(let error):
            return .unknown(error.reason)
        case .success(let list):
            if let problem = await signerRevocationProblem(list, at: now) { return .unknown(problem) }
            let finding: StatusEvidence.Finding
            switch reference {
            case .statusList(let entry):
                finding = list.status(at: entry.index).map { .status($0) } ?? .unknown("the index is out of the list's range")
            case .identifierList(let entry):
                finding = list.lists(entry.identifier).map { .identifierListed($0) } ?? .unknown("not an identifier list")
            }
            return StatusEvidence(finding: finding, signerTrust: list.signerTrust,
                                  signerCertificate: list.signerCertificate, source: source)
        }
    }

    /// Evidence for an SD-JWT VC's `status.status_list` (the JWT form), its signer judged against `issuerTrust`, or
    /// for an issuer listed for JWT VC Issuer Metadata, by `issuerKeys` (that issuer's keys).
    public func evidence(for reference: SDJWTVCStatusReference, issuerTrust: TrustSnapshot, issuerKeys: SDJWTVCIssuerKeys? = nil,
                         now: Date) async -> StatusEvidence {
        let key = StatusListCache.Key(uri: reference.uri, kind: .statusListJWT, certificate: nil, metadataIssuer: issuerKeys?.issuer)
        let (result, source) = await cache.list(key, trust: issuerTrust, issuerKeys: issuerKeys, now: now)
        switch result {
        case .failure(let error):
            return .unknown(error.reason)
        case .success(let list):
            if let problem = await signerRevocationProblem(list, at: now) { return .unknown(problem) }
            let finding: StatusEvidence.Finding = list.status(at: reference.index).map { .status($0) }
                ?? .unknown("the index is out of the list's range")
            return StatusEvidence(finding: finding, signerTrust: list.signerTrust, signerCertificate: list.signerCertificate, source: source)
        }
    }
}

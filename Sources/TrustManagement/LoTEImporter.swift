import Foundation
import CertificateRevocation
import Encodings
import TrustLists
import TrustStore

/// Imports fetched lists of trusted entities: verified under the source's signer anchors as the kind it is
/// configured as, then imported into each trust set its scope names (the IACA set, the SD-JWT VC issuer set), or for
/// a WRPRC or WRPAC providers list into the anchors of that role's providers, when changed; a list in force past `NextUpdate`
/// and the grace is withdrawn (or only reported) as the source says.
public struct LoTEImporter: TrustListImporter {
    /// Keyed by ``LoTESource/trustSource`` (`lote:<name>`), as the refresher names them.
    private let sources: [String: LoTESource]
    private let iaca: LiveTrustSet
    private let sdJwtVcIssuers: LiveTrustSet?
    /// Where WRPRC and WRPAC providers lists go, by role (held in memory by each process).
    public let providerAnchors: [ListedProviderAnchors.Role: ListedProviderAnchors]
    private let verifier: LoTEVerifier
    /// The CRLs of the list signer's path, and how their outcome applies (`crl`); nil when CRL checking is off.
    private let crls: (any CRLSource)?
    private let crlPolicy: CertificateRevocationPolicy

    public init(sources: [LoTESource], iaca: LiveTrustSet, sdJwtVcIssuers: LiveTrustSet?,
                providerAnchors: [ListedProviderAnchors] = [], verifier: LoTEVerifier,
                crls: (any CRLSource)? = nil, crlPolicy: CertificateRevocationPolicy = .init(mode: .off)) {
        self.sources = Dictionary(sources.map { ($0.trustSource, $0) }, uniquingKeysWith: { first, _ in first })
        self.iaca = iaca
        self.sdJwtVcIssuers = sdJwtVcIssuers
        self.providerAnchors = Dictionary(providerAnchors.map { ($0.role, $0) }, uniquingKeysWith: { first, _ in first })
        self.verifier = verifier
        self.crls = crls
        self.crlPolicy = crlPolicy
    }

    public var listKind: String { "LoTE" }

    /// The sets a source feeds, each with its name and scope.
    public func targets(of source: LoTESource) -> [(name: String, trust: LiveTrustSet, docTypes: [String])] {
        var targets: [(name: String, trust: LiveTrustSet, docTypes: [String])] = []
        if let docTypes = source.scope.iacaDocTypes { targets.append(("iaca", iaca, docTypes)) }
        if let types = source.scope.sdJwtVcTypes, let sdJwtVcIssuers { targets.append(("sdJwtVcIssuers", sdJwtVcIssuers, types)) }
        return targets
    }

    /// The record of the list in force for `source`, from the first set it feeds.
    public func inForce(_ source: LoTESource) -> TrustListRecord? {
        if let role = source.scope.providers { return providerAnchors[role]?.record(source.trustSource) }
        return targets(of: source).lazy.compactMap { $0.trust.snapshot.lists[source.trustSource] }.first
    }

    public func isInForce(source: String) -> Bool {
        sources[source].map { inForce($0) != nil } ?? false
    }

    /// Lists kept in each process's memory (WRPRC providers) are fetched by every replica; the others once for all.
    public func sharesRefresh(source: String) -> Bool {
        sources[source]?.scope.providers == nil
    }

    /// Verifies `body` as the list of `source` at `time` (a list past `NextUpdate` is refused as stale beyond the
    /// grace).
    public func verify(_ body: [UInt8], source: LoTESource, at time: Date) throws(LoTEError) -> VerifiedLoTE {
        try verifier.verify(body, source: source.name, kind: source.kind, signerAnchors: source.signerAnchors, at: time,
                            staleGrace: source.staleGraceSeconds)
    }

    /// The list signer's path against its issuers' CRLs (RFC 5280 §6.3), fetched only for a list that otherwise
    /// verified: revoked is refused in any mode, undetermined under `enforce`; under `warn` the warning is returned.
    public func checkSignerRevocation(_ verified: VerifiedLoTE, at time: Date) async -> (refusal: LoTESignerRevocation?, warning: String?) {
        guard let crls, crlPolicy.mode != .off, !verified.signerLinks.isEmpty else { return (nil, nil) }
        let outcomes = await ChainRevocationChecker.outcomes(verified.signerLinks, source: crls, at: time)
        switch CertificateRevocationVerdict.judge(outcomes, policy: crlPolicy) {
        case .failed(let code, let detail): return (LoTESignerRevocation(code: code, detail: "the list signer: \(detail)"), nil)
        case .warning(let code, let detail): return (nil, "\(code): the list signer: \(detail)")
        case .passed, .notApplicable: return (nil, nil)
        }
    }

    /// Imports (or dry-runs) a verified list into every set the source feeds. The first refusal stops it; a set
    /// already changed stays changed (the next import brings the others along: the sequence rule lets the same list
    /// in again).
    public func importVerified(_ verified: VerifiedLoTE, source: LoTESource, dryRun: Bool, at time: Date, actor: String,
                               requestID: String? = nil) async throws(TrustChangeError) -> [LoTEImportResult]
    {
        var results: [LoTEImportResult] = []
        if let role = source.scope.providers, let anchors = providerAnchors[role] {
            results.append(try anchors.importList(verified, dryRun: dryRun, now: time))
        }
        for target in targets(of: source) {
            results.append(try await target.trust.importLoTE(verified, docTypes: target.docTypes, setName: target.name,
                                                             dryRun: dryRun, now: time, actor: actor, requestID: requestID))
        }
        return results
    }

    /// Why ``verifyAndCheckSigner(_:source:at:)`` refused a list: its content, or its signer's revocation.
    public enum Refusal: Error, Sendable, CustomStringConvertible {
        case list(LoTEError)
        case signer(LoTESignerRevocation)

        public var code: String {
            switch self {
            case .list(let error): error.code.rawValue
            case .signer(let refusal): refusal.code
            }
        }

        public var detail: String {
            switch self {
            case .list(let error): error.detail
            case .signer(let refusal): refusal.detail
            }
        }

        public var description: String {
            switch self {
            case .list(let error): error.description
            case .signer(let refusal): refusal.description
            }
        }
    }

    /// The list verified as `source` at `time`, then its signer's path against its CRLs: what every import (scheduled,
    /// admin) does before anything changes. Returns the list and, under `crl.mode` `warn`, the signer's CRL warning.
    public func verifyAndCheckSigner(_ body: [UInt8], source: LoTESource, at time: Date) async throws(Refusal)
        -> (verified: VerifiedLoTE, warning: String?)
    {
        let verified: VerifiedLoTE
        do {
            verified = try verify(body, source: source, at: time)
        } catch {
            throw .list(error)
        }
        let (refusal, warning) = await checkSignerRevocation(verified, at: time)
        if let refusal { throw .signer(refusal) }
        return (verified, warning)
    }

    public func importFetched(_ body: [UInt8], source name: String, at time: Date) async -> VICALRefresher.Outcome {
        guard let source = sources[name] else {
            return .init(at: time, outcome: "refused", detail: "no such list source")
        }
        let verified: VerifiedLoTE, warning: String?
        do {
            (verified, warning) = try await verifyAndCheckSigner(body, source: source, at: time)
        } catch {
            return .init(at: time, outcome: "refused", detail: error.description)
        }
        if source.scope.providers != nil ? inForce(source)?.sha256 == verified.sha256
            : targets(of: source).allSatisfy({ $0.trust.snapshot.lists[name]?.sha256 == verified.sha256 }) {
            return .init(at: time, outcome: "unchanged", detail: nil)
        }
        do {
            let results = try await importVerified(verified, source: source, dryRun: false, at: time, actor: "lote-refresh:\(source.name)")
            let added = results.map(\.diff.added.count).reduce(0, +)
            let removed = results.map(\.diff.removed.count).reduce(0, +)
            return .init(at: time, outcome: "imported", detail: "sequence \(verified.sequenceNumber): \(added) added, \(removed) removed"
                         + (warning.map { "; \($0)" } ?? ""))
        } catch {
            return .init(at: time, outcome: "refused", detail: error.description)
        }
    }

    /// A list in force past `NextUpdate` plus the grace: under `withdraw`, its anchors leave every set it fed.
    public func enforceFreshness(source name: String, at time: Date) async -> String? {
        guard let source = sources[name], let record = inForce(source), let next = record.nextUpdate,
              time >= next.addingTimeInterval(source.staleGraceSeconds)
        else { return nil }
        guard source.onStale == .withdraw else { return "past NextUpdate; its anchors stay (onStale warn)" }
        var withdrawn = source.scope.providers.flatMap { providerAnchors[$0] }?.withdraw(name) == true
        for target in targets(of: source) {
            withdrawn = (try? await target.trust.withdrawList(source: name, actor: "lote-stale:\(source.name)")) ?? false || withdrawn
        }
        return withdrawn ? "past NextUpdate \(RFC3339Timestamp.string(next)): its anchors are withdrawn until a fresh list is imported" : nil
    }

    public func deadline(source name: String) -> Date? {
        guard let source = sources[name], let next = inForce(source)?.nextUpdate else { return nil }
        return next.addingTimeInterval(source.staleGraceSeconds)
    }
}

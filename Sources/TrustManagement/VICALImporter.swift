import Foundation
import TrustLists
import TrustStore

/// Imports fetched VICALs into the IACA set: verified under the source's signer anchor, imported only when changed.
public struct VICALImporter: TrustListImporter {
    private let trust: LiveTrustSet
    /// The certificate each source's signer must chain to, by source name.
    private let signers: [String: VICALSignerAnchor]
    private let verifier: VICALVerifier

    public init(trust: LiveTrustSet, signers: [String: VICALSignerAnchor], verifier: VICALVerifier) {
        self.trust = trust
        self.signers = signers
        self.verifier = verifier
    }

    public var listKind: String { "VICAL" }

    public func isInForce(source: String) -> Bool { trust.snapshot.lists[source] != nil }

    public func importFetched(_ body: [UInt8], source: String, at time: Date) async -> VICALRefresher.Outcome {
        guard let anchor = signers[source] else {
            return .init(at: time, outcome: "refused", detail: "no signer anchor is configured")
        }
        let verified: VerifiedVICAL
        do {
            verified = try verifier.verify(body, source: source, signerAnchor: anchor, at: time)
        } catch {
            return .init(at: time, outcome: "refused", detail: error.description)
        }
        if trust.snapshot.lists[source]?.sha256 == verified.sha256 {
            return .init(at: time, outcome: "unchanged", detail: nil)
        }
        do {
            let result = try await trust.importVICAL(verified, dryRun: false, now: time, actor: "vical-refresh:\(source)")
            return .init(at: time, outcome: "imported", detail: "\(result.diff.added.count) added, \(result.diff.removed.count) removed")
        } catch {
            return .init(at: time, outcome: "refused", detail: error.description)
        }
    }
}

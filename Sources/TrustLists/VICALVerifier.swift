import CertificationPath
import COSE
import Crypto
import Encodings
import Foundation
import MDoc
import SwiftASN1
import TrustStore
import X509

/// Verifies a VICAL before anything of it is trusted (ISO/IEC 18013-5 Annex C): the COSE_Sign1 signature with the
/// first x5chain certificate, the chain from it to the source's signer anchor at the verification time, the
/// signer's authorization to sign VICALs, then `date` and `nextUpdate`.
public struct VICALVerifier: Sendable {
    /// Extended key usage of a VICAL signer (ISO/IEC 18013-5 Annex B).
    public static let vicalSignerOID: ASN1ObjectIdentifier = [1, 0, 18013, 5, 1, 8]

    public var limits: VICALLimits
    /// Tolerance for `date` lying slightly in the future.
    public var clockSkew: TimeInterval

    public init(limits: VICALLimits = .default, clockSkew: TimeInterval = 300) {
        self.limits = limits
        self.clockSkew = clockSkew
    }

    /// Verifies `bytes` as a VICAL of `source` signed under `signerAnchor`, at `time`.
    public func verify(_ bytes: [UInt8], source: String, signerAnchor: VICALSignerAnchor, at time: Date)
        throws(VICALError) -> VerifiedVICAL
    {
        guard bytes.count <= limits.maximumBytes else {
            throw VICALError(.malformed, "\(bytes.count) bytes; at most \(limits.maximumBytes) are accepted")
        }
        let message: COSESign1
        do {
            message = try COSESign1(bytes: bytes, decoder: .init(limits: limits.decoding))
        } catch {
            throw VICALError(.malformed, "not a COSE_Sign1: \(error)")
        }
        guard let payload = message.payload else { throw VICALError(.malformed, "the COSE_Sign1 has no payload") }
        let chainBytes: [ArraySlice<UInt8>]
        do {
            chainBytes = try message.headers.x5chain()
        } catch {
            throw VICALError(.malformed, "x5chain: \(error)")
        }
        guard !chainBytes.isEmpty else { throw VICALError(.malformed, "the COSE_Sign1 carries no x5chain") }
        guard chainBytes.count <= limits.maximumChainLength else {
            throw VICALError(.malformed, "x5chain holds \(chainBytes.count) certificates; at most \(limits.maximumChainLength)")
        }
        var chain: [Certificate] = []
        for (index, der) in chainBytes.enumerated() {
            do {
                chain.append(try Certificate(derEncoded: Array(der)))
            } catch {
                throw VICALError(.malformed, "x5chain certificate \(index) does not parse as an X.509 certificate (\(DERProblem.phrase(error)))")
            }
        }
        let signer = chain[0]
        // 1. The signature, with the signer's key.
        guard let key = COSEPublicKey(certificate: signer) else {
            throw VICALError(.signatureInvalid, "the signer key \(signer.subject) is not an EC P-256, P-384 or P-521 key")
        }
        do {
            try message.verify(using: key)
        } catch {
            throw VICALError(.signatureInvalid, "the COSE signature does not verify with \(signer.subject): \(error)")
        }
        // 2. The path up to the configured anchor, every certificate valid at `time`, and the signer authorized.
        let builder = CertificationPathBuilder(anchors: PinnedAnchors([signerAnchor.certificate], name: "signer anchor"),
                                               rules: Self.rules(at: time))
        if case .failure(let problem) = builder.build(leaf: signer, others: Array(chain.dropFirst())) {
            switch problem.kind {
            case .untrusted, .invalid: throw VICALError(.signerUntrusted, problem.detail)
            case .expired: throw VICALError(.signerExpired, problem.detail)
            case .notAuthorized: throw VICALError(.signerNotAuthorized, problem.detail)
            }
        }
        // 4. The dates.
        let vical = try VICAL(payload: payload, limits: limits)
        if vical.date > time.addingTimeInterval(clockSkew) {
            throw VICALError(.notYetValid, "the list is dated \(RFC3339Timestamp.string(vical.date)), after \(RFC3339Timestamp.string(time))")
        }
        if let next = vical.nextUpdate, next < time {
            throw VICALError(.stale, "the list was to be replaced by \(RFC3339Timestamp.string(next)); it is \(RFC3339Timestamp.string(time))")
        }
        // 5. The entries, each on its own.
        var skipped = vical.malformedEntries
        var anchors: [TrustAnchor] = []
        for entry in vical.entries {
            let metadata = TrustAnchorMetadata(
                source: TrustAnchorMetadata.vicalSource(source), docTypes: entry.docTypes,
                issuingAuthority: entry.issuingAuthority, issuingCountry: entry.issuingCountry,
                stateOrProvince: entry.stateOrProvinceName, vicalIssueID: vical.issueID)
            do {
                anchors.append(try TrustAnchor(derBytes: entry.certificate, metadata: metadata))
            } catch {
                skipped.append((entry.index, error.description))
            }
        }
        let merged = TrustSet(anchors: anchors).normalized().anchors
        guard !merged.isEmpty else {
            throw VICALError(.noUsableEntry, "none of the \(vical.entries.count) entries is a usable IACA")
        }
        return VerifiedVICAL(source: source, vical: vical, sha256: SHA256.hash(data: bytes).hexString,
                             signer: signer.subject.description, anchors: merged,
                             skipped: skipped.sorted { $0.index < $1.index })
    }

    /// The VICAL-signer rule set: RFC 5280 CA constraints on every issuer, every certificate valid at `time`, extended
    /// key usage 1.0.18013.5.1.8, and a key usage (when present) that allows signing.
    static func rules(at time: Date) -> [any PathRule] {
        [
            CertificateAuthorityConstraints(keyUsageRequired: false),
            ValidAtTime(time),
            LeafExtendedKeyUsage(vicalSignerOID, name: "VICAL signer"),
            LeafSigningKeyUsage(required: false, nonRepudiationSuffices: true),
        ]
    }
}

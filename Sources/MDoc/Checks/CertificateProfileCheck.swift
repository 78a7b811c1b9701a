import Crypto
import SwiftASN1
import X509

/// `issuer.certificateProfile`: the ISO 18013-5 Annex B profile of the IACA and the DS certificate.
/// Reported as a warning or a failure depending on the profile mode of the anchor.
struct CertificateProfileCheck: DocumentCheck {
    let id = VerificationCheckID.issuerCertificateProfile

    static let crlDistributionPoints: ASN1ObjectIdentifier = [2, 5, 29, 31]

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        guard context.chain.documentSigner != nil else {
            return .notApplicable("no document signer certificate to profile")
        }
        var findings = context.chain.profileFindings
        var countryMismatch = false
        if let issuingCountry = Self.issuingCountry(context.document),
           issuingCountry != context.chain.documentSignerCountry
        {
            countryMismatch = true
            findings.append(ProfileFinding(.mandatory, "issuing_country \"\(issuingCountry)\" differs from DS countryName "
                + (context.chain.documentSignerCountry ?? "(none)")))
        }
        return Self.outcome(findings, countryMismatch: countryMismatch, profileMode: context.profileMode)
    }

    /// The outcome of `findings` under `profileMode`; `countryMismatch` says the only finding that may be the
    /// issuing_country's is among them.
    static func outcome(_ findings: [ProfileFinding], countryMismatch: Bool, profileMode: ProfileCheckMode) -> CheckOutcome {
        guard !findings.isEmpty else { return .passed() }
        let detail = findings.map { "\($0.strength.rawValue): \($0.detail)" }.joined(separator: "; ")
        let fails: Bool
        switch profileMode {
        case .enforce: fails = true
        case .warn: fails = findings.contains { $0.strength == .mandatory }
        case .lenient: fails = false
        }
        if fails { return .failed(.certificateProfileViolation, detail) }
        // Under a lenient anchor the issuing_country deviation is named by its own code.
        return .warning(countryMismatch && findings.count == 1 && profileMode == .lenient
            ? .issuingCountryMismatch : .certificateProfileViolation, detail)
    }

    /// Findings about the certificates alone; without a trusted IACA only the DS is profiled.
    ///
    /// Mandatory (ISO 18013-5 Annex B): countryName in the IACA and the DS, the same in both; the DS
    /// stateOrProvinceName equal to the IACA's when the IACA has one; EC keys on P-256, P-384 or P-521.
    /// Recommended here: a CRL distribution point whose full names are URIs.
    static func certificateFindings(documentSigner leaf: Certificate, iaca: Certificate?) -> [ProfileFinding] {
        var findings: [ProfileFinding] = []
        let dsCountry = leaf.subject.firstValue(of: .RDNAttributeType.countryName)
        if dsCountry == nil { findings.append(ProfileFinding(.mandatory, "DS has no countryName")) }
        if let iaca {
            let iacaCountry = iaca.subject.firstValue(of: .RDNAttributeType.countryName)
            if iacaCountry == nil { findings.append(ProfileFinding(.mandatory, "IACA has no countryName")) }
            if let iacaCountry, let dsCountry, iacaCountry != dsCountry {
                findings.append(ProfileFinding(.mandatory, "DS countryName \(dsCountry) differs from IACA countryName \(iacaCountry)"))
            }
        }
        if let iacaState = iaca?.subject.firstValue(of: .RDNAttributeType.stateOrProvinceName) {
            let dsState = leaf.subject.firstValue(of: .RDNAttributeType.stateOrProvinceName)
            if dsState != iacaState {
                findings.append(ProfileFinding(.mandatory,
                    "DS stateOrProvinceName \(dsState ?? "(none)") differs from IACA \(iacaState)"))
            }
        }
        for (name, certificate) in [("IACA", iaca), ("DS", leaf)] {
            guard let certificate else { continue }
            if let problem = crlDistributionPointProblem(certificate) {
                findings.append(ProfileFinding(.recommended, "\(name) \(problem)"))
            }
            if !hasAllowedKey(certificate) {
                findings.append(ProfileFinding(.mandatory, "\(name) key is not EC P-256, P-384 or P-521"))
            }
        }
        return findings
    }

    static func issuingCountry(_ document: Document) -> String? {
        for (nameSpace, items) in document.issuerSigned.nameSpaces where nameSpace == "org.iso.18013.5.1" {
            if let item = items.first(where: { $0.elementIdentifier == "issuing_country" }) {
                return item.elementValue.textValue
            }
        }
        return nil
    }

    static func hasAllowedKey(_ certificate: Certificate) -> Bool {
        P256.Signing.PublicKey(certificate.publicKey) != nil || P384.Signing.PublicKey(certificate.publicKey) != nil
            || P521.Signing.PublicKey(certificate.publicKey) != nil
    }

    /// Annex B wants the CRL distribution point as a URI: present, with full names that are all URIs.
    static func crlDistributionPointProblem(_ certificate: Certificate) -> String? {
        guard let ext = certificate.extensions[oid: crlDistributionPoints] else {
            return "has no CRL distribution point"
        }
        guard let names = try? generalNameTags(inDistributionPoints: ext.value) else {
            return "CRL distribution point does not parse"
        }
        let uriTag: UInt = 6
        if names.isEmpty || names.contains(where: { $0 != uriTag }) {
            return "CRL distribution point is not (only) a URI"
        }
        return nil
    }

    /// The context tag numbers of the GeneralNames in every DistributionPoint's fullName.
    static func generalNameTags(inDistributionPoints der: ArraySlice<UInt8>) throws -> [UInt] {
        let root = try DER.parse(der)
        guard case .constructed(let points) = root.content else { return [] }
        var tags: [UInt] = []
        for point in points {
            guard case .constructed(let fields) = point.content else { continue }
            for field in fields where field.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                guard case .constructed(let choices) = field.content else { continue }
                for choice in choices where choice.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                    guard case .constructed(let generalNames) = choice.content else { continue }
                    tags += generalNames.map(\.identifier.tagNumber)
                }
            }
        }
        return tags
    }
}

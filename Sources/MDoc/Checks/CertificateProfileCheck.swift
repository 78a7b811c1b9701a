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
        var violations = context.chain.profileViolations
        if let dsCountry = context.chain.documentSignerCountry,
           let issuingCountry = Self.issuingCountry(context.document), issuingCountry != dsCountry
        {
            violations.append("issuing_country \"\(issuingCountry)\" differs from DS countryName \(dsCountry)")
        }
        guard violations.isEmpty else {
            let detail = violations.joined(separator: "; ")
            return context.profileMode == .enforce
                ? .failed(.certificateProfileViolation, detail) : .warning(.certificateProfileViolation, detail)
        }
        return .passed()
    }

    /// Findings about the certificates alone; without a trusted IACA only the DS is profiled.
    static func certificateViolations(documentSigner leaf: Certificate, iaca: Certificate?) -> [String] {
        var violations: [String] = []
        let dsCountry = leaf.subject.firstValue(of: .RDNAttributeType.countryName)
        if dsCountry == nil { violations.append("DS has no countryName") }
        if let iaca {
            let iacaCountry = iaca.subject.firstValue(of: .RDNAttributeType.countryName)
            if iacaCountry == nil { violations.append("IACA has no countryName") }
            if let iacaCountry, let dsCountry, iacaCountry != dsCountry {
                violations.append("DS countryName \(dsCountry) differs from IACA countryName \(iacaCountry)")
            }
        }
        if let iacaState = iaca?.subject.firstValue(of: .RDNAttributeType.stateOrProvinceName) {
            let dsState = leaf.subject.firstValue(of: .RDNAttributeType.stateOrProvinceName)
            if dsState != iacaState {
                violations.append("DS stateOrProvinceName \(dsState ?? "(none)") differs from IACA \(iacaState)")
            }
        }
        for (name, certificate) in [("IACA", iaca), ("DS", leaf)] {
            guard let certificate else { continue }
            if let problem = crlDistributionPointProblem(certificate) { violations.append("\(name) \(problem)") }
            if !hasAllowedKey(certificate) { violations.append("\(name) key is not EC P-256, P-384 or P-521") }
        }
        return violations
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

import SwiftASN1
import X509

/// TS 119 602 6.8 (as the annexes' signature clauses apply it): the list signer's certificate names the scheme
/// operator, its subject countryName is `SchemeTerritory` and its organizationName one of the `SchemeOperatorName`
/// values, so a certificate of the operator's CA issued to someone else cannot sign the operator's list.
enum LoTESignerNameBinding {
    /// Why `signer` does not name the operator of `scheme`, or nil when it does.
    static func problem(signer: Certificate, scheme: LoTESchemeInformation) -> String? {
        let countries = values(of: .RDNAttributeType.countryName, in: signer.subject)
        let organizations = values(of: .RDNAttributeType.organizationName, in: signer.subject)
        // Implicit scheme information may have no territory: nothing to bind (the EU profiles require one).
        if let territory = scheme.territory, countries != [territory] {
            let found = countries.isEmpty ? "no countryName" : "countryName \(countries.joined(separator: ", "))"
            return "the signer \(signer.subject) has \(found); SchemeTerritory is \(territory)"
        }
        let names = Set(scheme.operatorNames.map(\.value))
        guard !organizations.isEmpty, organizations.allSatisfy(names.contains) else {
            let found = organizations.isEmpty ? "no organizationName" : "organizationName \(organizations.joined(separator: ", "))"
            return "the signer \(signer.subject) has \(found), none of the SchemeOperatorName values"
        }
        return nil
    }

    private static func values(of type: ASN1ObjectIdentifier, in name: DistinguishedName) -> [String] {
        name.flatMap { rdn in rdn.filter { $0.type == type }.map { String(describing: $0.value) } }
    }
}

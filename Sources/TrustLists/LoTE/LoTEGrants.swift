import Crypto
import Foundation
import TrustStore
import X509

/// What the services of a verified list grant: one ``LoTEGrant`` per listed certificate, its purpose from the
/// service type, and whether the service's status lets it grant trust at the verification time. A certificate that
/// cannot be read is skipped with the reason, never trusted.
enum LoTEGrants {
    static func read(_ document: LoTEDocument, profile: LoTEProfile, at time: Date, clockSkew: TimeInterval)
        -> (grants: [LoTEGrant], skipped: [(index: String, reason: String)])
    {
        var grants: [LoTEGrant] = []
        var skipped: [(index: String, reason: String)] = []
        for (entityIndex, entity) in document.entities.enumerated() {
            let entityName = LoTEText.english(entity.names)
            for (serviceIndex, service) in entity.services.enumerated() {
                let place = "TrustedEntitiesList[\(entityIndex)].TrustedEntityServices[\(serviceIndex)]"
                let type = service.typeIdentifier ?? ""
                let purpose = profile.serviceTypes[type] ?? Self.purpose(ofUnknownType: type)
                let trusted = profile.serviceTypes[type] != nil && Self.statusGrantsTrust(service, profile: profile,
                                                                                           at: time.addingTimeInterval(clockSkew))
                if service.identity.certificates.isEmpty {
                    let others = service.identity.otherIdentifiers
                    skipped.append((place, others.isEmpty ? "the service digital identity is empty"
                                    : "no X509Certificates, only \(others.joined(separator: ", ")), which this reader does not use"))
                }
                for (index, encoded) in service.identity.certificates.enumerated() {
                    let certificatePlace = "\(place).X509Certificates[\(index)]"
                    guard let data = Data(base64Encoded: encoded) else {
                        skipped.append((certificatePlace, "val is not standard base64"))
                        continue
                    }
                    let der = Array(data)
                    let certificate: Certificate
                    do {
                        certificate = try Certificate(derEncoded: der)
                    } catch {
                        skipped.append((certificatePlace, "not an X.509 certificate (\(DERProblem.phrase(error)))"))
                        continue
                    }
                    if profile.certificateAuthoritiesOnly, !isCertificateAuthority(certificate) {
                        skipped.append((certificatePlace, "\(certificate.subject) is not a CA certificate; \(profile.name) lists CAs"))
                        continue
                    }
                    grants.append(LoTEGrant(
                        certificate: certificate, der: der, sha256: SHA256.hash(data: der).hexString, serviceType: type,
                        purpose: purpose, entityName: entityName, grantsTrust: trusted,
                        country: entity.country ?? certificate.subject.firstValue(of: .RDNAttributeType.countryName)))
                }
            }
        }
        return (grants, skipped)
    }

    /// Profiles without statuses: being listed is being trusted. Pub-EAA: only a `notified` status that has started.
    static func statusGrantsTrust(_ service: LoTEService, profile: LoTEProfile, at time: Date) -> Bool {
        guard let trustedStatus = profile.trustedStatus else { return true }
        return service.status == trustedStatus && (service.statusStartingTime ?? .distantFuture) <= time
    }

    /// The purpose a type's name suggests, for a type the profile does not know (its grants never grant trust).
    static func purpose(ofUnknownType type: String) -> LoTEGrant.Purpose {
        if type.hasSuffix("/Revocation") { return .revocation }
        if type.hasSuffix("/Register") { return .register }
        return .issuance
    }

    static func isCertificateAuthority(_ certificate: Certificate) -> Bool {
        if case .success(.isCertificateAuthority) = Result(catching: { try certificate.extensions.basicConstraints }) { return true }
        return false
    }
}

import Encodings
import Foundation

/// The EU profile of one kind of list (TS 119 602 Annexes D–I; the Commission's mDL providers list): the values its
/// scheme information must carry and the service types and statuses it allows. Being listed is being trusted, except
/// in the Pub-EAA profile, where a service's status says whether it is (`notified`) or no longer is (`withdrawn`).
struct LoTEProfile: Sendable {
    /// Names the profile in refusals, e.g. "the EU PID providers profile (Annex D)".
    let name: String
    let loteType: String
    /// `StatusDeterminationApproach` values accepted (WRPRC: the TS's misspelling and its correction).
    let statusDeterminationApproaches: Set<String>
    /// The `SchemeTypeCommunityRules` URI the list must carry.
    let communityRules: String
    /// Every service type the profile allows, with what it grants.
    let serviceTypes: [String: LoTEGrant.Purpose]
    /// `ServiceStatus` values allowed; empty when services carry no status.
    let serviceStatuses: Set<String>
    /// The status under which a service grants trust, for profiles with statuses.
    let trustedStatus: String?
    /// Whether the services' certificates must be CA certificates (WRPAC, WRPRC: PKIX only).
    let certificateAuthoritiesOnly: Bool

    /// At most this many calendar months between `ListIssueDateTime` and `NextUpdate`.
    static let maximumMonthsToNextUpdate = 6
    /// Pub-EAA keeps history forever (Annex H as third parties read it; the EUDI library says absent).
    static let historyKeptForever: Int64 = 65_535

    private static let etsi = "http://uri.etsi.org/19602/"
    private static let mdl = "http://trust.ec.europa.eu/lists/mDL/"

    /// The profile a list configured as `kind` must follow.
    static func of(_ kind: LoTEKind) -> LoTEProfile {
        switch kind {
        case .mdl:
            return LoTEProfile(
                name: "the Commission's mDL providers profile", loteType: mdl + "mDLProvidersListType",
                statusDeterminationApproaches: [mdl + "mDLProvidersListStatusDetn"], communityRules: mdl + "schemerules",
                serviceTypes: [
                    mdl + "SvcType/Issuance": .issuance, mdl + "SvcType/Revocation": .revocation,
                    // DIGIT's acceptance list uses it; the EUDI library keeps it as deprecated.
                    etsi + "SvcType/mDL/Issuance": .issuance,
                ],
                serviceStatuses: [], trustedStatus: nil, certificateAuthoritiesOnly: false)
        case .pid:
            return etsiProfile("the EU PID providers profile (Annex D)", list: "PIDProvidersList", type: "EUPIDProvidersList",
                               rules: "PIDProviders", services: "PID")
        case .wallet:
            return etsiProfile("the EU Wallet providers profile (Annex E)", list: "WalletProvidersList",
                               type: "EUWalletProvidersList", rules: "WalletProvidersList", services: "WalletSolution")
        case .wrpac:
            return etsiProfile("the EU WRPAC providers profile (Annex F)", list: "WRPACProvidersList",
                               type: "EUWRPACProvidersList", rules: "WRPACProvidersList", services: "WRPAC",
                               certificateAuthoritiesOnly: true)
        case .wrprc:
            // Table G.1 spells the status determination approach "WRPRCrovidersList"; the corrected form is accepted.
            return etsiProfile("the EU WRPRC providers profile (Annex G)", list: "WRPRCProvidersList",
                               type: "EUWRPRCProvidersList", rules: "WRPRCProvidersList", services: "WRPRC",
                               alsoStatusDetermination: etsi + "WRPRCrovidersList/StatusDetn/EU", certificateAuthoritiesOnly: true)
        case .pubeaa:
            let notified = etsi + "PubEAAProvidersList/SvcStatus/notified"
            return etsiProfile("the EU Pub-EAA providers profile (Annex H)", list: "PubEAAProvidersList",
                               type: "EUPubEAAProvidersList", rules: "PubEAAProvidersList", services: "PubEAA",
                               statuses: [notified, etsi + "PubEAAProvidersList/SvcStatus/withdrawn"], trustedStatus: notified)
        case .registrars:
            return LoTEProfile(
                name: "the EU registrars and registers profile (Annex I)", loteType: etsi + "LoTEType/EURegistrarsAndRegistersList",
                statusDeterminationApproaches: [etsi + "RegistrarsAndRegistersList/StatusDetn/EU"],
                communityRules: etsi + "RegistrarsAndRegistersList/schemerules/EU",
                serviceTypes: [etsi + "SvcType/Register": .register],
                serviceStatuses: [], trustedStatus: nil, certificateAuthoritiesOnly: false)
        }
    }

    /// An ETSI profile with an Issuance and a Revocation service type (and no service status unless given).
    private static func etsiProfile(_ name: String, list: String, type: String, rules: String, services: String,
                                    alsoStatusDetermination: String? = nil, certificateAuthoritiesOnly: Bool = false,
                                    statuses: Set<String> = [], trustedStatus: String? = nil) -> LoTEProfile
    {
        LoTEProfile(
            name: name, loteType: etsi + "LoTEType/" + type,
            statusDeterminationApproaches: Set([etsi + list + "/StatusDetn/EU", alsoStatusDetermination].compactMap { $0 }),
            communityRules: etsi + rules + "/schemerules/EU",
            serviceTypes: [etsi + "SvcType/\(services)/Issuance": .issuance, etsi + "SvcType/\(services)/Revocation": .revocation],
            serviceStatuses: statuses, trustedStatus: trustedStatus, certificateAuthoritiesOnly: certificateAuthoritiesOnly)
    }

    /// Whether the services of this profile carry a status.
    var usesServiceStatus: Bool { !serviceStatuses.isEmpty }

    /// Refuses `document` unless it follows the profile. `NextUpdate` is known (a closed list is refused before).
    func check(_ document: LoTEDocument, nextUpdate: Date) throws(LoTEError) {
        func violation(_ detail: String) -> LoTEError { LoTEError(.profileViolation, "\(detail) (\(name))") }
        let scheme = document.scheme
        let missing = LoTESchemeInformation.explicitMembers.filter { !scheme.present.contains($0) }
        guard missing.isEmpty else {
            throw violation("the scheme information is not explicit: \(missing.joined(separator: ", ")) missing")
        }
        guard scheme.type == loteType else {
            throw violation("LoTEType is \(scheme.type ?? "absent"), not \(loteType)")
        }
        guard let approach = scheme.statusDeterminationApproach, statusDeterminationApproaches.contains(approach) else {
            throw violation("StatusDeterminationApproach is \(scheme.statusDeterminationApproach ?? "absent"), not "
                            + statusDeterminationApproaches.sorted().joined(separator: " or "))
        }
        guard scheme.communityRules?.contains(where: { $0.uri == communityRules }) == true else {
            throw violation("SchemeTypeCommunityRules does not hold \(communityRules)")
        }
        guard scheme.territory == "EU" else { throw violation("SchemeTerritory is \(scheme.territory ?? "absent"), not EU") }
        try checkNextUpdate(issued: scheme.issued, nextUpdate: nextUpdate, violation: violation)
        if let period = scheme.historicalInformationPeriod, !(usesServiceStatus && period == Self.historyKeptForever) {
            throw violation("HistoricalInformationPeriod is \(period); the profile keeps no history"
                            + (usesServiceStatus ? " other than \(Self.historyKeptForever)" : ""))
        }
        for (entityIndex, entity) in document.entities.enumerated() {
            for (serviceIndex, service) in entity.services.enumerated() {
                try check(service, at: "TrustedEntitiesList[\(entityIndex)].TrustedEntityServices[\(serviceIndex)]",
                          violation: violation)
            }
        }
    }

    private func checkNextUpdate(issued: Date, nextUpdate: Date, violation: (String) -> LoTEError) throws(LoTEError) {
        guard nextUpdate > issued else { throw violation("NextUpdate is not after ListIssueDateTime") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let latest = calendar.date(byAdding: .month, value: Self.maximumMonthsToNextUpdate, to: issued) else {
            throw violation("ListIssueDateTime is out of range")
        }
        guard nextUpdate <= latest else {
            throw violation("NextUpdate \(RFC3339Timestamp.string(nextUpdate)) is more than \(Self.maximumMonthsToNextUpdate) months after "
                            + "ListIssueDateTime \(RFC3339Timestamp.string(issued))")
        }
    }

    private func check(_ service: LoTEService, at place: String, violation: (String) -> LoTEError) throws(LoTEError) {
        guard let type = service.typeIdentifier else { throw violation("\(place) has no ServiceTypeIdentifier") }
        guard serviceTypes[type] != nil else {
            throw violation("\(place) has ServiceTypeIdentifier \(type), which the profile does not allow")
        }
        if usesServiceStatus {
            guard let status = service.status, service.statusStartingTime != nil else {
                throw violation("\(place) lacks ServiceStatus or StatusStartingTime")
            }
            guard serviceStatuses.contains(status) else { throw violation("\(place) has ServiceStatus \(status), which the profile does not allow") }
        } else {
            guard service.status == nil, service.statusStartingTime == nil else {
                throw violation("\(place) carries ServiceStatus or StatusStartingTime; in this profile being listed is the status")
            }
            guard service.history.isEmpty else { throw violation("\(place) has a ServiceHistory; the profile keeps no history") }
            guard !service.identity.certificates.isEmpty else {
                throw violation("\(place) has no X509Certificates in its ServiceDigitalIdentity")
            }
        }
        for (index, instance) in service.history.enumerated() {
            if let type = instance.typeIdentifier, serviceTypes[type] == nil {
                throw violation("\(place).ServiceHistory[\(index)] has ServiceTypeIdentifier \(type), which the profile does not allow")
            }
            guard serviceStatuses.contains(instance.status) else {
                throw violation("\(place).ServiceHistory[\(index)] has ServiceStatus \(instance.status), which the profile does not allow")
            }
        }
    }
}

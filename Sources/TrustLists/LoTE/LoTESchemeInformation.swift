import Foundation
import StrictJSON

/// `ListAndSchemeInformation`: who operates the list, under which scheme, its number and dates.
struct LoTESchemeInformation: Sendable {
    /// The members of explicit scheme information that implicit scheme information leaves out (TS 119 602 6.3.0):
    /// the EU profiles require them all.
    static let explicitMembers = [
        "LoTEType", "SchemeOperatorAddress", "SchemeName", "SchemeInformationURI", "StatusDeterminationApproach",
        "SchemeTypeCommunityRules", "SchemeTerritory", "PolicyOrLegalNotice",
    ]

    static let members: Set<String> = [
        "LoTEVersionIdentifier", "LoTESequenceNumber", "LoTEType", "SchemeOperatorName", "SchemeOperatorAddress",
        "SchemeName", "SchemeInformationURI", "StatusDeterminationApproach", "SchemeTypeCommunityRules",
        "SchemeTerritory", "PolicyOrLegalNotice", "HistoricalInformationPeriod", "PointersToOtherLoTE",
        "ListIssueDateTime", "NextUpdate", "DistributionPoints", "SchemeExtensions",
    ]

    /// The names of the members present.
    let present: Set<String>
    let sequenceNumber: UInt64
    let type: String?
    let operatorNames: [LoTEText]
    let statusDeterminationApproach: String?
    let communityRules: [LoTEURI]?
    let territory: String?
    let historicalInformationPeriod: Int64?
    let issued: Date
    /// nil when `NextUpdate` is null: the scheme has ceased (TS 119 602 6.3.15; the schema has no null, the TS
    /// prevails).
    let nextUpdate: Date?

    init(_ json: JSON, at path: String, limits: LoTELimits) throws(LoTEError) {
        let object = try LoTEObject(json, at: path, members: Self.members)
        present = Self.members.filter(object.has)
        let version = try object.integer("LoTEVersionIdentifier")
        guard version == LoTEDocument.versionIdentifier else {
            throw LoTEError(.versionUnsupported, "LoTEVersionIdentifier is \(version); this reader implements version 1")
        }
        let sequence = try object.integer("LoTESequenceNumber")
        guard sequence >= 0 else { throw LoTEObject.malformed("\(object.place("LoTESequenceNumber")) is negative") }
        sequenceNumber = UInt64(sequence)
        type = try object.optionalURI("LoTEType")
        operatorNames = try object.texts("SchemeOperatorName")
        if let address = try object.optionalObject("SchemeOperatorAddress",
                                                   members: ["SchemeOperatorPostalAddress", "SchemeOperatorElectronicAddress"]) {
            _ = try address.each("SchemeOperatorPostalAddress", LoTEPostalAddress.check(_:at:))
            _ = try address.uris("SchemeOperatorElectronicAddress")
        }
        _ = try object.optionalTexts("SchemeName")
        _ = try object.optionalURIs("SchemeInformationURI")
        statusDeterminationApproach = try object.optionalURI("StatusDeterminationApproach")
        communityRules = try object.optionalURIs("SchemeTypeCommunityRules")
        territory = try object.optionalString("SchemeTerritory")
        if let territory, territory.count != 2 {
            throw LoTEObject.malformed("\(object.place("SchemeTerritory")) \"\(territory.prefix(8))\" is not a 2-letter code")
        }
        if let notices = try object.optionalArray("PolicyOrLegalNotice") {
            try Self.checkPolicyOrLegalNotice(notices, at: object.place("PolicyOrLegalNotice"))
        }
        historicalInformationPeriod = try object.optionalInteger("HistoricalInformationPeriod")
        _ = try object.optionalEach("PointersToOtherLoTE") { item, place throws(LoTEError) in
            try LoTEPointer.check(item, at: place, limits: limits)
        }
        issued = try object.dateTime("ListIssueDateTime")
        if case .null = try object.value("NextUpdate") {
            nextUpdate = nil
        } else {
            nextUpdate = try object.dateTime("NextUpdate")
        }
        _ = try object.optionalEach("DistributionPoints") { item, place throws(LoTEError) in try LoTEObject.uri(item, at: place) }
        _ = try object.optionalArray("SchemeExtensions")
    }

    /// `PolicyOrLegalNotice`: every item `{"LoTEPolicy": NonEmptyMultiLangURI}`, or every item
    /// `{"LoTELegalNotice": string}` (the schema's `oneOf` over the items).
    static func checkPolicyOrLegalNotice(_ items: [JSON], at path: String) throws(LoTEError) {
        var kinds = Set<String>()
        for (index, item) in items.enumerated() {
            let place = "\(path)[\(index)]"
            let object = try LoTEObject(item, at: place, members: ["LoTEPolicy", "LoTELegalNotice"])
            switch (object.has("LoTEPolicy"), object.has("LoTELegalNotice")) {
            case (true, false):
                _ = try LoTEURI(try object.value("LoTEPolicy"), at: object.place("LoTEPolicy"))
                kinds.insert("LoTEPolicy")
            case (false, true):
                _ = try object.string("LoTELegalNotice")
                kinds.insert("LoTELegalNotice")
            default:
                throw LoTEObject.malformed("\(place) must hold exactly one of LoTEPolicy and LoTELegalNotice")
            }
        }
        guard kinds.count == 1 else {
            throw LoTEObject.malformed("\(path) mixes LoTEPolicy and LoTELegalNotice items (the schema wants one kind)")
        }
    }
}

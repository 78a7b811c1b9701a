import StrictJSON

/// The payload of a list of trusted entities, `{"LoTE": {...}}` (ETSI TS 119 602 JSON binding), read strictly: the
/// JSON parsed with duplicate names refused, every object holding only the members the schema defines, each of its
/// JSON type, every array with at least one item, every date-time `YYYY-MM-DDThh:mm:ssZ`.
struct LoTEDocument: Sendable {
    /// The version of the parsing rules this reader implements.
    static let versionIdentifier: Int64 = 1

    let scheme: LoTESchemeInformation
    /// `TrustedEntitiesList`, empty when absent (no entity approved).
    let entities: [LoTETrustedEntity]

    init(payload: [UInt8], limits: LoTELimits) throws(LoTEError) {
        let json: JSON
        do {
            json = try JSONParser.parse(payload, limits: .init(maximumDepth: 32, maximumValues: limits.maximumJSONValues))
        } catch {
            throw LoTEError(.malformed, "the payload is not a strict JSON text: \(error)")
        }
        // The version first: a list of another version may follow other rules, so its members are not judged here.
        if case .int(let version)? = json[member: "LoTE"]?[member: "ListAndSchemeInformation"]?[member: "LoTEVersionIdentifier"],
           version != Self.versionIdentifier {
            throw LoTEError(.versionUnsupported, "LoTEVersionIdentifier is \(version); this reader implements version \(Self.versionIdentifier)")
        }
        let root = try LoTEObject(json, at: "payload", members: ["LoTE"])
        let list = try root.object("LoTE", members: ["ListAndSchemeInformation", "TrustedEntitiesList"])
        scheme = try LoTESchemeInformation(try list.value("ListAndSchemeInformation"),
                                           at: list.place("ListAndSchemeInformation"), limits: limits)
        entities = try list.optionalEach("TrustedEntitiesList", maximum: limits.maximumEntities) { item, place throws(LoTEError) in
            try LoTETrustedEntity(item, at: place, limits: limits)
        } ?? []
    }
}

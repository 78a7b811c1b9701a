import StrictJSON

/// `TrustedEntity`: an entity approved under the scheme, and its services.
struct LoTETrustedEntity: Sendable {
    /// `TEName`.
    let names: [LoTEText]
    /// `TEInformationURI`.
    let informationURIs: [LoTEURI]
    /// `TrustedEntityServices`.
    let services: [LoTEService]

    init(_ json: JSON, at path: String, limits: LoTELimits) throws(LoTEError) {
        let object = try LoTEObject(json, at: path, members: ["TrustedEntityInformation", "TrustedEntityServices"])
        let information = try object.object("TrustedEntityInformation", members: [
            "TEName", "TETradeName", "TEAddress", "TEInformationURI", "TEInformationExtensions",
        ])
        names = try information.texts("TEName")
        _ = try information.optionalTexts("TETradeName")
        let address = try information.object("TEAddress", members: ["TEPostalAddress", "TEElectronicAddress"])
        _ = try address.each("TEPostalAddress", LoTEPostalAddress.check(_:at:))
        _ = try address.uris("TEElectronicAddress")
        informationURIs = try information.uris("TEInformationURI")
        _ = try information.optionalArray("TEInformationExtensions")
        services = try object.each("TrustedEntityServices", maximum: limits.maximumServicesPerEntity) { item, place throws(LoTEError) in
            try LoTEService(item, at: place, limits: limits)
        }
    }

    /// The entity's country as the ETSI information URI ends (`…/ListOfTrustedEntities/PIDProvider/DE`), if any.
    var country: String? {
        for entry in informationURIs where entry.uri.hasPrefix("http://uri.etsi.org/19602/ListOfTrustedEntities/") {
            guard let last = entry.uri.split(separator: "/").last, last.utf8.count == 2,
                  last.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            else { continue }
            return String(last)
        }
        return nil
    }
}

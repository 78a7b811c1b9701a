import StrictJSON

/// `PostalAddress` (of the scheme operator and of each entity): checked, not kept.
enum LoTEPostalAddress {
    static func check(_ json: JSON, at place: String) throws(LoTEError) {
        let object = try LoTEObject(json, at: place, members: [
            "lang", "StreetAddress", "Locality", "StateOrProvince", "PostalCode", "Country",
        ])
        _ = try object.string("lang")
        _ = try object.string("StreetAddress")
        _ = try object.string("Country")
        _ = try object.optionalString("Locality")
        _ = try object.optionalString("StateOrProvince")
        _ = try object.optionalString("PostalCode")
    }
}

import StrictJSON

/// `OtherLoTEPointer` (`PointersToOtherLoTE`): where another list is and who signs it. Checked, not followed: a
/// source is configured with its own location and signer anchors.
enum LoTEPointer {
    static func check(_ json: JSON, at place: String, limits: LoTELimits) throws(LoTEError) {
        let object = try LoTEObject(json, at: place, members: ["LoTELocation", "ServiceDigitalIdentities", "LoTEQualifiers"])
        _ = try object.uri("LoTELocation")
        _ = try object.each("ServiceDigitalIdentities") { item, place throws(LoTEError) in
            try LoTEServiceDigitalIdentity(item, at: place, limits: limits)
        }
        _ = try object.each("LoTEQualifiers") { item, place throws(LoTEError) in
            let qualifier = try LoTEObject(item, at: place, members: [
                "LoTEType", "SchemeOperatorName", "SchemeTypeCommunityRules", "SchemeTerritory", "MimeType",
            ])
            _ = try qualifier.uri("LoTEType")
            _ = try qualifier.texts("SchemeOperatorName")
            _ = try qualifier.optionalURIs("SchemeTypeCommunityRules")
            _ = try qualifier.optionalString("SchemeTerritory")
            _ = try qualifier.string("MimeType")
        }
    }
}

import StrictJSON

/// `ServiceDigitalIdentity`: the certificates (and other identifiers) of a service. Closed, as the schema means it
/// to be (its `additionalProperties: false` sits inside `properties` by mistake).
struct LoTEServiceDigitalIdentity: Sendable {
    /// `X509Certificates[].val`: standard base64 of DER, decoded when grants are made.
    let certificates: [String]
    /// The other identifier members present (`X509SubjectNames`, `PublicKeyValues`, `X509SKIs`, `OtherIds`).
    let otherIdentifiers: [String]

    init(_ json: JSON, at path: String, limits: LoTELimits) throws(LoTEError) {
        let object = try LoTEObject(json, at: path, members: [
            "X509Certificates", "X509SubjectNames", "PublicKeyValues", "X509SKIs", "OtherIds",
        ])
        // Base64 of the largest DER accepted.
        let longest = (limits.maximumCertificateBytes + 2) / 3 * 4
        certificates = try object.optionalEach("X509Certificates", maximum: limits.maximumCertificatesPerService) {
            item, place throws(LoTEError) in
            let certificate = try LoTEObject(item, at: place, members: ["val", "encoding", "specRef"])
            let value = try certificate.string("val")
            _ = try certificate.optionalURI("encoding")
            _ = try certificate.optionalString("specRef")
            guard value.utf8.count <= longest else {
                throw LoTEError(.tooLarge, "\(place).val holds more than \(limits.maximumCertificateBytes) bytes")
            }
            return value
        } ?? []
        _ = try object.optionalEach("X509SubjectNames", LoTEObject.string(_:at:))
        _ = try object.optionalEach("PublicKeyValues") { item, place throws(LoTEError) in
            guard case .object = item else { throw LoTEObject.malformed("\(place) is not a JWK object") }
        }
        _ = try object.optionalEach("X509SKIs", LoTEObject.string(_:at:))
        _ = try object.optionalEach("OtherIds", LoTEObject.string(_:at:))
        otherIdentifiers = ["X509SubjectNames", "PublicKeyValues", "X509SKIs", "OtherIds"].filter(object.has)
    }
}

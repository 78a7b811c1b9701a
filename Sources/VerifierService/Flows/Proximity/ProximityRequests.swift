import StrictJSON

/// The body of `POST /v1/proximity/sessions`.
struct ProximitySessionBody: KnownFields {
    let deviceEngagement: String
    let handover: String?
    let documents: [RequestedDocument]?
    let deviceRequest: String?
    let eReaderPrivateKey: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case deviceEngagement, handover, documents, deviceRequest, eReaderPrivateKey }
}

/// The body of `POST /v1/proximity/sessions/{id}/messages`.
struct ProximityMessageBody: KnownFields {
    let sessionData: String
    let verificationTime: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case sessionData, verificationTime }
}

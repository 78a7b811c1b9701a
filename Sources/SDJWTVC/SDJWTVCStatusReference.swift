/// `status.status_list` of an SD-JWT VC (Token Status List 6.2): the list's URI and the credential's index.
public struct SDJWTVCStatusReference: Sendable, Hashable {
    public let uri: String
    public let index: UInt64

    public init(uri: String, index: UInt64) {
        self.uri = uri
        self.index = index
    }
}

/// Which reader authentication a DeviceRequest carries.
public enum ReaderAuthMode: String, Sendable, CaseIterable {
    /// One `readerAuth` per DocRequest over `ReaderAuthentication` (ISO 18013-5 9.1.4); DeviceRequest 1.0.
    case readerAuth
    /// One `readerAuthAll` over `ReaderAuthenticationAll` (18013-5 second edition), what Apple's web flow uses;
    /// DeviceRequest 1.1 with `deviceRequestInfo`.
    case readerAuthAll
    /// Both, for wallets of either generation; DeviceRequest 1.1.
    case both

    var perDocRequest: Bool { self != .readerAuthAll }
    var all: Bool { self != .readerAuth }
}

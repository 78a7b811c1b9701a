/// One `-----BEGIN label----- … -----END label-----` block of PEM text (RFC 7468): its label, the bytes its base64
/// body decodes to (DER for certificates and keys), and where it stood in the text.
public struct PEMBlock: Sendable, Equatable {
    /// The label of both boundaries, e.g. `CERTIFICATE`, `PRIVATE KEY`, `EC PRIVATE KEY`.
    public let label: String
    /// The decoded body.
    public let bytes: [UInt8]
    /// The block's position among the blocks of the text, from 1.
    public let index: Int
    /// The line of its BEGIN boundary, from 1.
    public let line: Int

    public init(label: String, bytes: [UInt8], index: Int, line: Int) {
        self.label = label
        self.bytes = bytes
        self.index = index
        self.line = line
    }
}

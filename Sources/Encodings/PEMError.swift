/// Why text is not PEM (RFC 7468). Each case names the block (its position from 1, its label and the line of its
/// BEGIN boundary) and the line at fault; none quotes the body.
public enum PEMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text ends, or another BEGIN boundary starts, before the block's END boundary.
    case missingEnd(block: Int, label: String, line: Int)
    /// An END boundary with no open block.
    case endWithoutBegin(line: Int)
    /// The END boundary's label is not the BEGIN boundary's.
    case labelMismatch(block: Int, line: Int, begin: String, end: String)
    /// The body is not base64 (RFC 4648 §4, padded): `reason` says how, naming the line where it can.
    case invalidBase64(block: Int, label: String, line: Int, reason: String)
    /// The body has no base64 at all.
    case emptyBody(block: Int, label: String, line: Int)
    /// RFC 1421 headers (`Proc-Type:`, `DEK-Info:`: a legacy encrypted key), which RFC 7468 does not allow.
    case headers(block: Int, label: String, line: Int, headerLine: Int)
    /// A line that starts like a boundary but is not `-----BEGIN label-----` or `-----END label-----`.
    case malformedBoundary(line: Int)

    public var description: String {
        switch self {
        case .missingEnd(let block, let label, let line):
            return "PEM block \(block) (\(label), line \(line)) has no END line"
        case .endWithoutBegin(let line):
            return "line \(line): END without BEGIN"
        case .labelMismatch(let block, let line, let begin, let end):
            return "PEM block \(block) (line \(line)) begins \(begin) but ends \(end)"
        case .invalidBase64(let block, let label, let line, let reason):
            return "PEM block \(block) (\(label), line \(line)) is not valid base64: \(reason)"
        case .emptyBody(let block, let label, let line):
            return "PEM block \(block) (\(label), line \(line)) is empty"
        case .headers(let block, let label, let line, let headerLine):
            return "PEM block \(block) (\(label), line \(line)) has an RFC 1421 header on line \(headerLine) "
                + "(an encrypted key?), which is not supported"
        case .malformedBoundary(let line):
            return "line \(line): not a PEM boundary (-----BEGIN LABEL----- or -----END LABEL-----)"
        }
    }
}

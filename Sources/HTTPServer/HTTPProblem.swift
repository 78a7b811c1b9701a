import Encodings
import HTTPTypes

/// A problem document (RFC 9457, `application/problem+json`) with a stable machine-readable `code`.
public struct HTTPProblem: Sendable, Hashable {
    /// URI reference identifying the problem type; `about:blank` when there is no specific one.
    public var type: String
    /// Short human-readable summary of the problem type.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// Human-readable explanation specific to this occurrence.
    public var detail: String
    /// Stable machine-readable code such as `MALFORMED_REQUEST`.
    public var code: String

    /// Creates a problem document.
    public init(type: String = "about:blank", title: String, status: Int, detail: String, code: String) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
    }

    /// The JSON encoding, members in a fixed order.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 + title.utf8.count + detail.utf8.count)
        out.append(contentsOf: "{\"type\":".utf8)
        JSONStringLiteral.append(type, to: &out)
        out.append(contentsOf: ",\"title\":".utf8)
        JSONStringLiteral.append(title, to: &out)
        out.append(contentsOf: ",\"status\":\(status),\"detail\":".utf8)
        JSONStringLiteral.append(detail, to: &out)
        out.append(contentsOf: ",\"code\":".utf8)
        JSONStringLiteral.append(code, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}

/// The errors the server itself answers, each with its status and stable code.
public enum HTTPServerErrorKind: String, Sendable, Hashable, CaseIterable {
    case malformedRequest = "MALFORMED_REQUEST"
    case notFound = "NOT_FOUND"
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    case requestTimeout = "REQUEST_TIMEOUT"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case uriTooLong = "URI_TOO_LONG"
    case headersTooLarge = "HEADERS_TOO_LARGE"
    case expectationFailed = "EXPECTATION_FAILED"
    case versionNotSupported = "HTTP_VERSION_NOT_SUPPORTED"
    case serviceUnavailable = "SERVICE_UNAVAILABLE"
    case clientCertificateRequired = "CLIENT_CERTIFICATE_REQUIRED"
    case internalError = "INTERNAL_ERROR"

    /// The HTTP status answered for this kind.
    public var status: HTTPResponse.Status {
        switch self {
        case .malformedRequest: return .badRequest
        case .notFound: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .requestTimeout: return .requestTimeout
        case .payloadTooLarge: return .contentTooLarge
        case .uriTooLong: return .uriTooLong
        case .headersTooLarge: return .requestHeaderFieldsTooLarge
        case .expectationFailed: return .expectationFailed
        case .versionNotSupported: return .init(code: 505, reasonPhrase: "HTTP Version Not Supported")
        case .serviceUnavailable: return .serviceUnavailable
        case .clientCertificateRequired: return .forbidden
        case .internalError: return .internalServerError
        }
    }

    /// Builds the problem document for one occurrence.
    public func problem(detail: String, typeBase: String? = nil) -> HTTPProblem {
        let status = self.status
        let type: String
        if let base = typeBase {
            type = base + rawValue.lowercased().replacingUnderscores()
        } else {
            type = "about:blank"
        }
        return HTTPProblem(type: type, title: status.reasonPhrase, status: status.code, detail: detail, code: rawValue)
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(self.map { $0 == "_" ? "-" : $0 })
    }
}

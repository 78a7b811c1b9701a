import HTTPTypes

/// Turns a response into HTTP/1.1 bytes.
///
/// The server owns the framing fields: it writes `Content-Length` from the body (omitted for 1xx, 204 and 304,
/// which RFC 9110 forbids it on), `Date` (unless the handler set one), `X-Request-Id`, and `Connection: close` when
/// it will close. A handler's `Content-Length`, `Transfer-Encoding`, `Connection` and `X-Request-Id` are dropped.
/// Field values are already legalized by swift-http-types, so a handler cannot inject CR or LF.
enum ResponseSerializer {
    static func serialize(_ response: HTTPServerResponse, requestID: String, isHead: Bool, close: Bool) -> [UInt8] {
        let status = response.head.status
        let code = status.code
        let bodyAllowed = !(code < 200 || code == 204 || code == 304)
        var out: [UInt8] = []
        out.reserveCapacity(256 + (isHead || !bodyAllowed ? 0 : response.body.count))
        let reason = status.reasonPhrase.isEmpty ? standardReasonPhrase(code) : status.reasonPhrase
        out.append(contentsOf: "HTTP/1.1 \(code) \(reason)\r\n".utf8)
        var hasDate = false
        for field in response.head.headerFields {
            switch field.name {
            case .contentLength, .transferEncoding, .connection, .xRequestID:
                continue
            case .date:
                hasDate = true
            default:
                break
            }
            out.append(contentsOf: field.name.rawName.utf8)
            out.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: [0x0D, 0x0A])
        }
        if !hasDate {
            out.append(contentsOf: "Date: ".utf8)
            out.append(contentsOf: HTTPDateCache.shared.current())
            out.append(contentsOf: [0x0D, 0x0A])
        }
        if bodyAllowed {
            out.append(contentsOf: "Content-Length: \(response.body.count)\r\n".utf8)
        }
        out.append(contentsOf: "X-Request-Id: ".utf8)
        out.append(contentsOf: requestID.utf8)
        out.append(contentsOf: [0x0D, 0x0A])
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        }
        out.append(contentsOf: [0x0D, 0x0A])
        if bodyAllowed && !isHead {
            out.append(contentsOf: response.body)
        }
        return out
    }

    static func standardReasonPhrase(_ code: Int) -> String {
        switch code {
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return ""
        }
    }

}

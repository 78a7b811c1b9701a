import HTTPTypes

/// How the body of a request is delimited.
enum BodyFraming: Sendable, Hashable {
    case none
    case contentLength(Int)
    case chunked
}

/// A parsed request head with the framing decisions already made.
struct ParsedRequestHead: Sendable {
    var method: HTTPRequest.Method
    /// Request target as sent (origin-form), or the path-and-query of an absolute-form target, or `*`.
    var target: String
    /// Authority from the Host field (or from an absolute-form target).
    var authority: String?
    var fields: HTTPFields
    /// HTTP/1.1 (or a later 1.x); `false` for HTTP/1.0.
    var isHTTP11: Bool
    /// The client asked to close (`Connection: close`), or it speaks HTTP/1.0.
    var wantsClose: Bool
    var expectContinue: Bool
    var framing: BodyFraming
}

/// What the parser produced.
enum HTTPParserEvent: Sendable {
    /// The head is complete; the body (if any) follows.
    case head(ParsedRequestHead)
    /// The body is complete (empty when the request has none); the parser is ready for the next request.
    case body([UInt8])
}

/// Limits the parser enforces; each violation is an ``HTTPParseError`` with its own kind.
struct HTTPParserLimits: Sendable {
    var maxRequestLineLength: Int
    var maxHeaderBytes: Int
    var maxHeaderCount: Int
    var maxBodyBytes: Int
    /// Larger limits for some paths (``HTTPServerConfiguration/largeBodyPaths``).
    var largeBodyPaths: [String: Int]
    /// Longest chunk-size line including extensions.
    var maxChunkLineLength: Int = 4096
    /// Most empty lines tolerated before a request line (RFC 9112 §2.2).
    var maxLeadingEmptyLines: Int = 8

    init(_ c: HTTPServerConfiguration) {
        maxRequestLineLength = c.maxRequestLineLength
        maxHeaderBytes = c.maxHeaderBytes
        maxHeaderCount = c.maxHeaderCount
        maxBodyBytes = c.maxBodyBytes
        largeBodyPaths = c.largeBodyPaths
    }

    /// The body limit for a request target.
    func maxBodyBytes(target: String) -> Int {
        guard !largeBodyPaths.isEmpty else { return maxBodyBytes }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        if let exact = largeBodyPaths[path] { return max(maxBodyBytes, exact) }
        let prefixed = largeBodyPaths.lazy.filter { $0.key.hasSuffix("/") && path.hasPrefix($0.key) }.map(\.value).max()
        return max(maxBodyBytes, prefixed ?? maxBodyBytes)
    }
}

/// An incremental HTTP/1.1 request parser (RFC 9112): a state machine over bytes with explicit limits.
///
/// Feed bytes with ``append(_:)`` and pull events with ``next()``, which returns `nil` when it needs more bytes.
/// It is strict: bare LF, obsolete line folding, invalid characters, ambiguous framing and oversize input are
/// errors. After an error the parser stays failed.
struct HTTPRequestParser: Sendable {
    private enum State: Sendable {
        case head
        case bodyLength(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case bodyDone
        case failed
    }

    let limits: HTTPParserLimits
    static let hostName: HTTPField.Name = {
        guard let name = HTTPField.Name("Host") else { preconditionFailure("valid literal field name") }
        return name
    }()
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`.
    private var start = 0
    private var state: State = .head
    private var body: [UInt8] = []
    /// The body limit of the request being read (its path's, see ``HTTPParserLimits/maxBodyBytes(target:)``).
    private var bodyLimit = 0

    // Head scanning progress (indices into `buffer`, valid while in `.head`).
    private var scanPos = 0
    private var requestLineEnd: Int? = nil   // index of the LF ending the request line
    private var headerLines: [Range<Int>] = []  // without CRLF
    private var lineStart = 0
    private var leadingEmptyLines = 0

    /// Method and target of the request being parsed, once its request line is known (for logs of errors).
    private(set) var currentMethod: String? = nil
    private(set) var currentTarget: String? = nil
    /// The X-Request-ID of the request being parsed, once its field line is read: a request refused for what a
    /// later field says (a Content-Length over the limit) still has its ID echoed.
    private(set) var currentRequestID: String? = nil

    init(limits: HTTPParserLimits) {
        self.limits = limits
    }

    /// Bytes received but not consumed yet.
    var bufferedByteCount: Int { buffer.count - start }

    /// True when no part of a next request has been received (the connection is idle between requests).
    var isIdle: Bool {
        if case .head = state { return buffer.count == start }
        return false
    }

    /// True while the parser is between a complete head and the end of its body.
    var isReadingBody: Bool {
        switch state {
        case .bodyLength, .chunkSize, .chunkData, .chunkDataEnd, .trailers, .bodyDone: return true
        case .head, .failed: return false
        }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // Everything consumed: start over at index 0, unless a partial head still refers to buffer indices.
        if start == buffer.count && start > 0 {
            var headInProgress = false
            if case .head = state { headInProgress = !headerLines.isEmpty || requestLineEnd != nil }
            if !headInProgress {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 256 * 1024)
                start = 0
                scanPos = 0
                lineStart = 0
            }
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Returns the next event, or `nil` when more bytes are needed.
    mutating func next() throws(HTTPParseError) -> HTTPParserEvent? {
        do {
            return try step()
        } catch {
            state = .failed
            throw error
        }
    }

    private mutating func step() throws(HTTPParseError) -> HTTPParserEvent? {
        while true {
            switch state {
            case .failed:
                throw .malformed("connection already failed")
            case .head:
                guard let head = try scanHead() else { return nil }
                return .head(head)
            case .bodyDone:
                let done = body
                body = []
                startNextRequest()
                return .body(done)
            case .bodyLength(let remaining):
                let available = buffer.count - start
                if available == 0 { return nil }
                let n = min(available, remaining)
                body.append(contentsOf: buffer[start..<(start + n)])
                start += n
                state = remaining - n == 0 ? .bodyDone : .bodyLength(remaining: remaining - n)
            case .chunkSize:
                guard let lf = findLF(from: start, limit: limits.maxChunkLineLength) else {
                    if buffer.count - start > limits.maxChunkLineLength {
                        throw .malformed("chunk-size line longer than \(limits.maxChunkLineLength) bytes")
                    }
                    return nil
                }
                guard lf > start, buffer[lf - 1] == 0x0D else { throw .malformed("chunk-size line not ended by CRLF") }
                let size = try parseChunkSizeLine(start..<(lf - 1))
                start = lf + 1
                if size == 0 {
                    state = .trailers(bytes: 0)
                } else {
                    if size > bodyLimit - body.count {
                        throw HTTPParseError(.payloadTooLarge, "chunked body exceeds the limit of \(bodyLimit) bytes")
                    }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let available = buffer.count - start
                if available == 0 { return nil }
                let n = min(available, remaining)
                body.append(contentsOf: buffer[start..<(start + n)])
                start += n
                state = remaining - n == 0 ? .chunkDataEnd : .chunkData(remaining: remaining - n)
            case .chunkDataEnd:
                if buffer.count - start < 2 { return nil }
                guard buffer[start] == 0x0D, buffer[start + 1] == 0x0A else {
                    throw .malformed("chunk data not followed by CRLF")
                }
                start += 2
                state = .chunkSize
            case .trailers(let bytes):
                let room = limits.maxHeaderBytes - bytes
                guard let lf = findLF(from: start, limit: room) else {
                    if buffer.count - start > room {
                        throw HTTPParseError(.headersTooLarge, "trailer section larger than \(limits.maxHeaderBytes) bytes")
                    }
                    return nil
                }
                guard lf > start, buffer[lf - 1] == 0x0D else { throw .malformed("bare LF in trailer section") }
                let line = start..<(lf - 1)
                if line.isEmpty {
                    start = lf + 1
                    state = .bodyDone
                } else {
                    // Trailer fields are validated like header fields, then discarded.
                    if buffer[line.lowerBound] == 0x20 || buffer[line.lowerBound] == 0x09 {
                        throw .malformed("obsolete line folding in trailer section")
                    }
                    _ = try parseFieldLine(line)
                    start = lf + 1
                    state = .trailers(bytes: bytes + line.count + 2)
                }
            }
        }
    }

    private mutating func startNextRequest() {
        state = .head
        currentMethod = nil
        currentTarget = nil
        currentRequestID = nil
        requestLineEnd = nil
        headerLines.removeAll(keepingCapacity: true)
        leadingEmptyLines = 0
        // Compact: drop consumed bytes so the buffer does not grow across pipelined requests.
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        scanPos = 0
        lineStart = 0
    }

    /// Index of the first LF in `buffer[from...]` within `limit + 2` bytes (room for CRLF), or nil.
    private func findLF(from: Int, limit: Int) -> Int? {
        let end = min(buffer.count, from + max(limit, 0) + 2)
        var i = from
        while i < end {
            if buffer[i] == 0x0A { return i }
            i += 1
        }
        return nil
    }

    // MARK: Head

    private mutating func scanHead() throws(HTTPParseError) -> ParsedRequestHead? {
        if scanPos < start { scanPos = start; lineStart = start }
        // Request line (after tolerated leading empty lines).
        while requestLineEnd == nil {
            // Skip leading CRLFs.
            while buffer.count - start >= 1 && (buffer[start] == 0x0D || buffer[start] == 0x0A) {
                if buffer[start] == 0x0A { throw .malformed("bare LF before request line") }
                if buffer.count - start < 2 { return nil }
                if buffer[start + 1] != 0x0A { throw .malformed("bare CR before request line") }
                leadingEmptyLines += 1
                if leadingEmptyLines > limits.maxLeadingEmptyLines { throw .malformed("too many empty lines before request line") }
                start += 2
                scanPos = start
                lineStart = start
            }
            guard let lf = findLF(from: scanPos, limit: limits.maxRequestLineLength - (scanPos - start)) else {
                if buffer.count - start > limits.maxRequestLineLength + 1 {
                    throw HTTPParseError(.uriTooLong, "request line longer than \(limits.maxRequestLineLength) bytes")
                }
                scanPos = max(start, buffer.count)
                return nil
            }
            guard lf > start, buffer[lf - 1] == 0x0D else { throw .malformed("request line ended by a bare LF") }
            if lf - 1 - start > limits.maxRequestLineLength {
                throw HTTPParseError(.uriTooLong, "request line longer than \(limits.maxRequestLineLength) bytes")
            }
            requestLineEnd = lf
            try parseRequestLine(start..<(lf - 1))
            scanPos = lf + 1
            lineStart = lf + 1
        }
        guard let rlEnd = requestLineEnd else { return nil }
        // Header lines until an empty line.
        while true {
            let used = scanPos - (rlEnd + 1)
            let room = limits.maxHeaderBytes - used
            guard let lf = findLF(from: scanPos, limit: room) else {
                if buffer.count - (rlEnd + 1) > limits.maxHeaderBytes + 2 {
                    throw HTTPParseError(.headersTooLarge, "header section larger than \(limits.maxHeaderBytes) bytes")
                }
                scanPos = buffer.count
                return nil
            }
            guard lf > lineStart, buffer[lf - 1] == 0x0D else { throw .malformed("header line ended by a bare LF") }
            let line = lineStart..<(lf - 1)
            scanPos = lf + 1
            lineStart = lf + 1
            if lf + 1 - (rlEnd + 1) > limits.maxHeaderBytes + 2 {
                throw HTTPParseError(.headersTooLarge, "header section larger than \(limits.maxHeaderBytes) bytes")
            }
            if line.isEmpty { break }
            headerLines.append(line)
            if headerLines.count > limits.maxHeaderCount {
                throw HTTPParseError(.headersTooLarge, "more than \(limits.maxHeaderCount) header fields")
            }
        }
        let head = try buildHead(requestLine: start..<(rlEnd - 1))
        start = scanPos
        switch head.framing {
        case .none: state = .bodyDone
        case .contentLength(let n):
            body.reserveCapacity(min(n, 64 * 1024))
            state = n == 0 ? .bodyDone : .bodyLength(remaining: n)
        case .chunked: state = .chunkSize
        }
        return head
    }

    private var parsedMethod: HTTPRequest.Method? = nil
    private var parsedTarget: String = ""
    private var parsedHTTP11 = true

    private mutating func parseRequestLine(_ line: Range<Int>) throws(HTTPParseError) {
        // method SP request-target SP HTTP-version, single spaces only.
        var spaces: [Int] = []
        for i in line where buffer[i] == 0x20 {
            spaces.append(i)
            if spaces.count > 2 { break }
        }
        guard spaces.count == 2 else { throw .malformed("request line is not 'method SP target SP version'") }
        let methodRange = line.lowerBound..<spaces[0]
        let targetRange = (spaces[0] + 1)..<spaces[1]
        let versionRange = (spaces[1] + 1)..<line.upperBound
        guard !methodRange.isEmpty, methodRange.allSatisfy({ CharClass.isTchar(buffer[$0]) }) else {
            throw .malformed("invalid method")
        }
        let methodString = String(decoding: buffer[methodRange], as: UTF8.self)
        currentMethod = methodString
        guard !targetRange.isEmpty else { throw .malformed("empty request target") }
        for i in targetRange {
            let b = buffer[i]
            guard b >= 0x21 && b <= 0x7E && b != UInt8(ascii: "#") else {
                throw .malformed("invalid character 0x\(String(b, radix: 16)) in request target")
            }
        }
        let target = String(decoding: buffer[targetRange], as: UTF8.self)
        currentTarget = target
        let v = Array(buffer[versionRange])
        guard v.count == 8, v[0...4].elementsEqual("HTTP/".utf8), CharClass.isDigit(v[5]), v[6] == UInt8(ascii: "."),
              CharClass.isDigit(v[7]) else {
            throw .malformed("invalid HTTP version")
        }
        guard v[5] == UInt8(ascii: "1") else {
            throw HTTPParseError(.versionNotSupported, "only HTTP/1.x is supported")
        }
        parsedHTTP11 = v[7] != UInt8(ascii: "0")
        guard let method = HTTPRequest.Method(methodString) else { throw .malformed("invalid method") }
        parsedMethod = method
        parsedTarget = target
    }

    /// Parses `name: value`; returns the validated name and value ranges.
    private func parseFieldLine(_ line: Range<Int>) throws(HTTPParseError) -> (name: Range<Int>, value: Range<Int>) {
        var colon: Int? = nil
        for i in line {
            let b = buffer[i]
            if b == UInt8(ascii: ":") { colon = i; break }
            guard CharClass.isTchar(b) else {
                throw .malformed(b == 0x20 || b == 0x09 ? "whitespace in or after a header field name" : "invalid character in header field name")
            }
        }
        guard let colon, colon > line.lowerBound else { throw .malformed("header line without a field name and colon") }
        var vs = colon + 1
        var ve = line.upperBound
        while vs < ve && (buffer[vs] == 0x20 || buffer[vs] == 0x09) { vs += 1 }
        while ve > vs && (buffer[ve - 1] == 0x20 || buffer[ve - 1] == 0x09) { ve -= 1 }
        for i in vs..<ve {
            let b = buffer[i]
            guard b == 0x09 || (b >= 0x20 && b != 0x7F) else { throw .malformed("invalid character in header field value") }
        }
        return (line.lowerBound..<colon, vs..<ve)
    }

    private mutating func buildHead(requestLine: Range<Int>) throws(HTTPParseError) -> ParsedRequestHead {
        guard let method = parsedMethod else { throw .malformed("missing request line") }
        var fields = HTTPFields()
        fields.reserveCapacity(headerLines.count)
        var contentLength: Int? = nil
        var sawContentLength = false
        var transferEncodings: [Substring] = []
        var sawTransferEncoding = false
        var hostCount = 0
        var host: String? = nil
        var wantsClose = !parsedHTTP11
        var expectContinue = false
        for line in headerLines {
            if buffer[line.lowerBound] == 0x20 || buffer[line.lowerBound] == 0x09 {
                throw .malformed("obsolete line folding (header line starting with whitespace)")
            }
            let (nameRange, valueRange) = try parseFieldLine(line)
            let nameString = String(decoding: buffer[nameRange], as: UTF8.self)
            guard let name = HTTPField.Name(nameString) else { throw .malformed("invalid header field name") }
            let valueBytes = buffer[valueRange]
            let value = String(decoding: valueBytes, as: UTF8.self)
            switch name {
            case .contentLength:
                sawContentLength = true
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let trimmed = part.trimmingOWS()
                    guard !trimmed.isEmpty, trimmed.utf8.allSatisfy(CharClass.isDigit) else {
                        throw .malformed("Content-Length is not a decimal number")
                    }
                    let digits = trimmed.drop(while: { $0 == "0" })
                    guard digits.utf8.count <= 18, let n = Int(digits.isEmpty ? "0" : digits) else {
                        throw HTTPParseError(.payloadTooLarge, "Content-Length exceeds the limit of \(limits.maxBodyBytes) bytes")
                    }
                    if let existing = contentLength, existing != n {
                        throw .malformed("differing Content-Length values")
                    }
                    contentLength = n
                }
            case .transferEncoding:
                sawTransferEncoding = true
                transferEncodings.append(contentsOf: value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingOWS() })
            case HTTPRequestParser.hostName:
                hostCount += 1
                host = value
            case .connection:
                for token in value.split(separator: ",") where token.trimmingOWS().lowercased() == "close" {
                    wantsClose = true
                }
            case .expect:
                guard value.lowercased() == "100-continue" else {
                    throw HTTPParseError(.expectationFailed, "unsupported expectation")
                }
                expectContinue = parsedHTTP11
            case .xRequestID:
                currentRequestID = value
            default:
                break
            }
            fields.append(HTTPField(name: name, value: valueBytes))
        }
        if hostCount > 1 { throw .malformed("more than one Host header field") }
        if parsedHTTP11 && hostCount == 0 { throw .malformed("HTTP/1.1 request without a Host header field") }
        if let host, !CharClass.isValidHost(host) { throw .malformed("invalid Host header field") }

        var framing = BodyFraming.none
        if sawTransferEncoding {
            if sawContentLength { throw .malformed("both Content-Length and Transfer-Encoding") }
            if !parsedHTTP11 { throw .malformed("Transfer-Encoding in an HTTP/1.0 request") }
            guard transferEncodings.count == 1, transferEncodings[0].lowercased() == "chunked" else {
                throw .malformed("unsupported Transfer-Encoding (only 'chunked' is accepted)")
            }
            framing = .chunked
        } else if let n = contentLength {
            framing = .contentLength(n)
        }
        if case .none = framing { expectContinue = false }
        if case .contentLength(0) = framing { expectContinue = false }

        // Request target forms (RFC 9112 §3.2).
        var target = parsedTarget
        var authority = host
        if target.hasPrefix("/") {
            // origin-form
        } else if target == "*" {
            guard method == .options else { throw .malformed("asterisk-form target is only valid for OPTIONS") }
        } else if let rest = CharClass.stripHTTPScheme(target) {
            // absolute-form: take authority and path from the target.
            let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" })
            authority = String(slash.map { rest[..<$0] } ?? rest[...])
            let pathPart = slash.map { String(rest[$0...]) } ?? "/"
            target = pathPart.hasPrefix("?") ? "/" + pathPart : pathPart
        } else {
            throw .malformed("unsupported request target form")
        }
        bodyLimit = limits.maxBodyBytes(target: target)
        if case .contentLength(let n) = framing, n > bodyLimit {
            throw HTTPParseError(.payloadTooLarge, "Content-Length \(n) exceeds the limit of \(bodyLimit) bytes")
        }
        return ParsedRequestHead(method: method, target: target, authority: authority, fields: fields,
                                 isHTTP11: parsedHTTP11, wantsClose: wantsClose, expectContinue: expectContinue,
                                 framing: framing)
    }

    private func parseChunkSizeLine(_ line: Range<Int>) throws(HTTPParseError) -> Int {
        var value: UInt64 = 0
        var digits = 0
        var i = line.lowerBound
        while i < line.upperBound, let d = RequestTarget.hexValue(buffer[i]) {
            digits += 1
            if digits > 16 { throw .malformed("chunk size overflows") }
            value = value << 4 | UInt64(d)
            i += 1
        }
        guard digits > 0 else { throw .malformed("invalid chunk size") }
        guard value <= UInt64(Int.max) else { throw .malformed("chunk size overflows") }
        if i < line.upperBound {
            // Optional BWS then ';' chunk extensions, which are ignored but must be well-formed characters.
            while i < line.upperBound && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
            guard i < line.upperBound, buffer[i] == UInt8(ascii: ";") else { throw .malformed("invalid chunk size") }
            for j in i..<line.upperBound {
                let b = buffer[j]
                guard b == 0x09 || (b >= 0x20 && b != 0x7F) else { throw .malformed("invalid character in chunk extension") }
            }
        }
        return Int(value)
    }
}

/// Character classes from RFC 9110.
enum CharClass {
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    static func isTchar(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }

    /// uri-host [ ":" port ]: unreserved, sub-delims, '%', ':' and IP-literal brackets.
    static func isValidHost(_ s: String) -> Bool {
        s.utf8.count <= 1024 && s.utf8.allSatisfy { b in
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"),
                 UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "!"), UInt8(ascii: "$"),
                 UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
                 UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                return true
            default: return false
            }
        }
    }

    /// The rest of an `http://` or `https://` target (scheme matched case-insensitively), else nil.
    static func stripHTTPScheme(_ target: String) -> Substring? {
        let lower = target.prefix(8).lowercased()
        if lower.hasPrefix("http://") { return target.dropFirst(7) }
        if lower.hasPrefix("https://") { return target.dropFirst(8) }
        return nil
    }
}

extension Substring {
    /// Drops leading and trailing SP and HTAB.
    func trimmingOWS() -> Substring {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}

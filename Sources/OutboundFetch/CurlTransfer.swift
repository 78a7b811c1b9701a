import CCurl
import Foundation

/// One HTTP exchange through libcurl, run by the ``FetchDriver`` (never blocking a thread of its own): no redirect
/// followed, every connection's address checked by the policy at connect time, the body cut off at the limit while it
/// arrives. Its callbacks run on the driver's thread only.
final class CurlTransfer {
    struct Answer {
        let status: Int
        let body: [UInt8]
        let headers: [(name: String, value: String)]
        let redirectURL: String?
    }

    static let initialized: Bool = vd_curl_global_init() == CURLE_OK
    static let maximumHeaderBytes = 64 << 10

    /// The easy handle; cleaned up with the transfer.
    let handle: UnsafeMutableRawPointer
    /// Where the connection goes (`host:port`), for the driver's per-destination limit.
    let destination: String
    private let policy: DestinationPolicy
    private let urlHost: String
    private let limits: FetchLimits
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let callbacks: UnsafeMutablePointer<vd_transfer_callbacks>
    private var body: [UInt8] = []
    private var headers: [(name: String, value: String)] = []
    private var headerBytes = 0
    private var refusal: String?
    private var tooLarge = false

    /// A GET of `url` (already checked by the policy) with `requestHeaders`, or a POST of `postBody` when given, ready
    /// to be added to a multi handle.
    init(_ url: String, urlHost: String, port: Int, requestHeaders: [String], limits: FetchLimits,
         policy: DestinationPolicy, postBody: [UInt8]? = nil) throws(FetchError) {
        guard Self.initialized, let handle = curl_easy_init() else { throw FetchError(.failed, "libcurl is unavailable") }
        self.handle = handle
        self.destination = "\(urlHost):\(port)"
        self.policy = policy
        self.urlHost = urlHost
        self.limits = limits
        callbacks = .allocate(capacity: 1)
        for header in requestHeaders + ["Expect:"] { headerList = curl_slist_append(headerList, header) }
        callbacks.initialize(to: vd_transfer_callbacks(
            context: nil,
            destination: { context, address, length, port in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.allow(UnsafeBufferPointer(start: address, count: Int(length)), port: Int(port)) ? 1 : 0
            },
            body: { context, bytes, length in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: bytes, count: length))
            },
            header: { context, bytes, length in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: bytes, count: length))
            }))
        // Unretained: the driver keeps the transfer alive while libcurl may call back.
        callbacks.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        ok = ok && vd_curl_setopt_string(handle, CURLOPT_URL, url) == CURLE_OK
        ok = ok && vd_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK
        ok = ok && vd_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0) == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1) == CURLE_OK
        // Environment proxies would connect elsewhere than the checked address: never used.
        ok = ok && vd_curl_setopt_string(handle, CURLOPT_PROXY, "") == CURLE_OK
        ok = ok && vd_curl_setopt_string(handle, CURLOPT_NOPROXY, "*") == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1) == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1) == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1) == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.idleTimeout.rounded(.up)))) == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1) == CURLE_OK
        ok = ok && vd_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2) == CURLE_OK
        ok = ok && vd_curl_setopt_string(handle, CURLOPT_USERAGENT, "verifierd") == CURLE_OK
        ok = ok && vd_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList) == CURLE_OK
        ok = ok && vd_curl_install_callbacks(handle, callbacks) == CURLE_OK
        if let postBody {
            // libcurl copies the body (COPYPOSTFIELDS after its size), so this array need not outlive the call.
            ok = ok && vd_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, postBody.count) == CURLE_OK
            ok = ok && postBody.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return vd_curl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "") }
                return vd_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
            } == CURLE_OK
        }
        guard ok else { throw FetchError(.failed, "libcurl refused an option") }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        callbacks.deallocate()
    }

    /// Sets what is left of the fetch's deadline as this transfer's whole time (and its connect time, within the
    /// configured connect timeout), just before it starts.
    func startWithin(_ remaining: Duration) -> Bool {
        let milliseconds = max(1, remaining.wholeMilliseconds)
        let connect = min(milliseconds, max(1, Int(limits.connectTimeout * 1000)))
        return vd_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds) == CURLE_OK
            && vd_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, connect) == CURLE_OK
    }

    /// The outcome once libcurl says the transfer ended with `code`; `timeout` names the fetch's whole deadline.
    func outcome(_ code: CURLcode, timeout: TimeInterval) -> Result<Answer, FetchError> {
        if let refusal { return .failure(FetchError(.refused, refusal)) }
        if tooLarge { return .failure(FetchError(.tooLarge, "the body is larger than \(limits.maximumBodyBytes) bytes")) }
        guard code == CURLE_OK else { return .failure(Self.failure(code, timeout: timeout, idle: limits.idleTimeout)) }
        var status = 0
        _ = vd_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var redirect: UnsafeMutablePointer<CChar>?
        _ = vd_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect)
        return .success(Answer(status: status, body: body, headers: headers, redirectURL: redirect.map { String(cString: $0) }))
    }

    static func failure(_ code: CURLcode, timeout: TimeInterval, idle: TimeInterval) -> FetchError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return FetchError(.timedOut, "no complete answer within the deadline (\(Self.seconds(timeout)) s total, \(Self.seconds(idle)) s idle)")
        case CURLE_COULDNT_RESOLVE_HOST: return FetchError(.failed, "the host name does not resolve")
        case CURLE_COULDNT_CONNECT: return FetchError(.failed, "the connection was refused or failed")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return FetchError(.failed, "the server's TLS certificate is not trusted for its name")
        case CURLE_SSL_CONNECT_ERROR: return FetchError(.failed, "the TLS handshake failed")
        case CURLE_UNSUPPORTED_PROTOCOL: return FetchError(.refused, "the scheme is refused: only https")
        default: return FetchError(.failed, "the transfer failed (\(String(cString: curl_easy_strerror(code))))")
        }
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    private func allow(_ address: UnsafeBufferPointer<UInt8>, port: Int) -> Bool {
        guard let ip = IPAddress(bytes: Array(address)) else {
            refusal = "an address of an unknown family"
            return false
        }
        if let reason = policy.refusal(connectingTo: ip, port: port, urlHost: urlHost) {
            // The first refusal explains the failure; a later address of the same name may still be allowed.
            if refusal == nil { refusal = reason }
            return false
        }
        refusal = nil
        return true
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= limits.maximumBodyBytes else {
            tooLarge = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    private func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        headerBytes += bytes.count
        guard headerBytes <= Self.maximumHeaderBytes else { return 0 }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = []  // a new response (after 1xx): only the final one's headers count
            return bytes.count
        }
        guard let colon = line.firstIndex(of: ":") else { return bytes.count }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if name == "content-length", let declared = Int(value), declared > limits.maximumBodyBytes {
            tooLarge = true
            return 0
        }
        headers.append((name, value))
        return bytes.count
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Fetches status list tokens. The verification path awaits at most `timeout` for any fetch.
public protocol StatusListFetching: Sendable {
    func fetch(_ url: URL) async throws(StatusListError) -> [UInt8]
}

/// Limits on what a fetch may cost.
public struct StatusFetchLimits: Sendable, Equatable {
    /// Whole-fetch deadline, connection included.
    public var timeout: TimeInterval
    /// Largest body read; a longer one is cancelled while it arrives.
    public var maximumBytes: Int
    /// URI schemes allowed, lowercase (`https`; `http` only when listed).
    public var allowedSchemes: Set<String>

    public init(timeout: TimeInterval = 5, maximumBytes: Int = 10 << 20, allowedSchemes: Set<String> = ["https"]) {
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.allowedSchemes = allowedSchemes
    }
}

/// Fetches over URLSession (libcurl on Linux) with `Accept: application/statuslist+cwt`, the size and time
/// limits enforced while reading, and redirects followed only within the allowed schemes and never to another
/// scheme.
public final class URLSessionStatusListFetcher: NSObject, StatusListFetching, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: all mutable state is in `transfers`, behind a Mutex; URLSession calls the delegate on its queue.
    private struct Transfer {
        var body: [UInt8] = []
        var failure: StatusListError?
        var continuation: CheckedContinuation<[UInt8], any Error>?
    }

    public let limits: StatusFetchLimits
    private let transfers = Mutex<[Int: Transfer]>([:])
    private var session: URLSession!

    public init(limits: StatusFetchLimits) {
        self.limits = limits
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.timeout
        configuration.timeoutIntervalForResource = limits.timeout
        configuration.httpMaximumConnectionsPerHost = 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func fetch(_ url: URL) async throws(StatusListError) -> [UInt8] {
        guard let scheme = url.scheme?.lowercased(), limits.allowedSchemes.contains(scheme), url.host != nil else {
            throw StatusListError("the URI scheme is not allowed (status.allowedSchemes)")
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: limits.timeout)
        request.setValue("application/statuslist+cwt", forHTTPHeaderField: "Accept")
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        let deadline = DispatchWorkItem { [weak task] in task?.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + limits.timeout, execute: deadline)
        defer { deadline.cancel() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                transfers.withLock { $0[id] = Transfer(continuation: continuation) }
                task.resume()
            }
        } catch let error as StatusListError {
            throw error
        } catch {
            throw StatusListError("fetch failed: \(error.localizedDescription)")
        }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let id = dataTask.taskIdentifier
        if let http = response as? HTTPURLResponse, http.statusCode != 200 {
            fail(id, StatusListError("the server answered \(http.statusCode)"))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(limits.maximumBytes) {
            fail(id, StatusListError("the list is larger than \(limits.maximumBytes) bytes"))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let tooLarge = transfers.withLock { transfers -> Bool in
            guard transfers[id] != nil else { return false }
            if transfers[id]!.body.count + data.count > limits.maximumBytes { return true }
            transfers[id]!.body += data
            return false
        }
        if tooLarge {
            fail(id, StatusListError("the list is larger than \(limits.maximumBytes) bytes"))
            dataTask.cancel()
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let from = task.originalRequest?.url?.scheme?.lowercased()
        let to = request.url?.scheme?.lowercased()
        if let to, to == from, limits.allowedSchemes.contains(to) {
            completionHandler(request)
        } else {
            fail(task.taskIdentifier, StatusListError("a redirect to another scheme was refused"))
            completionHandler(nil)
            task.cancel()
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let transfer = transfers.withLock { $0.removeValue(forKey: id) }
        guard let transfer, let continuation = transfer.continuation else { return }
        if let failure = transfer.failure {
            continuation.resume(throwing: failure)
        } else if let error {
            let reason = (error as? URLError)?.code == .cancelled || (error as? URLError)?.code == .timedOut
                ? "the fetch timed out after \(Int(limits.timeout)) s" : "fetch failed: \(error.localizedDescription)"
            continuation.resume(throwing: StatusListError(reason))
        } else {
            continuation.resume(returning: transfer.body)
        }
    }

    private func fail(_ id: Int, _ error: StatusListError) {
        transfers.withLock { transfers in
            if transfers[id] != nil, transfers[id]!.failure == nil { transfers[id]!.failure = error }
        }
    }
}

import CBOR
import Crypto
import Encodings
import Foundation
import HTTPServer
import MDoc
import Proximity
import ReaderAuthentication
import SessionStore

/// `POST /v1/proximity/sessions` and `POST /v1/proximity/sessions/{id}/messages`: the backend side of an ISO 18013-5
/// reader whose device only relays bytes (BLE, NFC stay on the device).
extension VerifierService {
    struct ProximitySessionBody: RequestBody {
        static let fields: Set<String> = ["deviceEngagement", "handover", "documents", "deviceRequest", "eReaderPrivateKey"]
        let deviceEngagement: String
        let handover: String?
        let documents: [WebRequestBody.DocumentBody]?
        let deviceRequest: String?
        let eReaderPrivateKey: String?
    }

    struct ProximityMessageBody: RequestBody {
        static let fields: Set<String> = ["sessionData", "verificationTime"]
        let sessionData: String
        let verificationTime: String?
    }

    static func problem(_ error: ProximityError) -> ServiceProblem {
        ServiceProblem(.badRequest, error.code.rawValue, error.detail)
    }

    func createProximitySession(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem)
        -> HTTPServerResponse
    {
        let proximity = try configured(configuration.proximity, "proximity")
        let body = try RequestDecoding.decode(ProximitySessionBody.self, from: request)
        let engagement: DeviceEngagement
        do {
            engagement = try DeviceEngagement(text: body.deviceEngagement)
        } catch {
            throw Self.problem(error)
        }
        let handover = try body.handover.map { (text) throws(ServiceProblem) in try RequestDecoding.base64(text, field: "handover") }
        let readerRequest: ProximityReader.Request
        switch (body.documents, body.deviceRequest) {
        case (.some, .some):
            throw ServiceProblem.invalidRequest("give \"documents\" or \"deviceRequest\", not both")
        case (nil, let deviceRequest?):
            readerRequest = .deviceRequest(try RequestDecoding.base64(deviceRequest, field: "deviceRequest"))
        case (let documents, nil):
            readerRequest = .items(try Self.requestedItems(documents))
        }
        var eReaderKey = P256.KeyAgreement.PrivateKey()
        if let hex = body.eReaderPrivateKey {
            guard proximity.allowInjectedReaderKey else {
                throw ServiceProblem(.badRequest, "INJECTED_READER_KEY_DISABLED",
                                     "\"eReaderPrivateKey\" is accepted only with proximity.allowInjectedReaderKey (tests)")
            }
            guard let raw = [UInt8](hexString: hex), let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
                throw ServiceProblem.invalidRequest("\"eReaderPrivateKey\" is not a P-256 scalar in hex")
            }
            eReaderKey = key
        }
        let opened: ProximityReader.Opened
        do {
            opened = try ProximityReader(builder: deviceRequestBuilder)
                .open(engagement: engagement, handover: handover, request: readerRequest, eReaderKey: eReaderKey)
        } catch {
            throw Self.problem(error)
        }
        let created = now()
        let expiresAt = created.addingTimeInterval(TimeInterval(proximity.sessionTTLSeconds))
        let id = SessionIdentifier.make()
        try await storeSession(opened.session.record(id: id, createdAt: created, expiresAt: expiresAt), for: integrator,
                               now: created)
        metrics.session(flow: "proximity", event: "created")
        return .json(.object([
            ("sessionId", .string(id)),
            ("expiresAt", .string(ReportJSON.timestamp(expiresAt))),
            ("eReaderKey", .string(Data(opened.transcript.eReaderCOSEKey).base64EncodedString())),
            ("sessionEstablishment", .string(Data(opened.sessionEstablishment).base64EncodedString())),
        ]), status: .created)
    }

    func proximityMessage(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let started = ContinuousClock.now
        _ = try configured(configuration.proximity, "proximity")
        let body = try RequestDecoding.decode(ProximityMessageBody.self, from: request)
        let time = try RequestDecoding.verificationTime(
            body.verificationTime, allowed: configuration.verification.allowVerificationTimeOverride, now: now())
        let sessionData = try RequestDecoding.base64(body.sessionData, field: "sessionData")
        let session = try await takeSession(request.pathParameters["id"] ?? "", as: ProximitySession.self, for: integrator)
        let report: VerificationReport
        // The reader tells the mdoc the session is over, unless the mdoc already ended it.
        var reply: JSON? = .string(Data(SessionData.termination).base64EncodedString())
        do throws(ResponseFailure) {
            switch try ProximityReader.receive(sessionData, session: session) {
            case .ended(let status):
                reply = nil
                report = .failure(.sessionEndedByDevice,
                                  "the mdoc ended the session with status \(status) (\(SessionData.knownStatuses[status] ?? "unknown"))")
            case .response(let response, _):
                var options = verificationOptions(at: time, readerKey: try? ReaderKey(rawScalar: Array(session.eReaderKey.rawRepresentation)))
                options.requestedItems = session.requested
                report = await verify(response, sessionTranscript: session.transcript, options: options, trust: trustStore.snapshot)
            }
        } catch {
            report = .failure(error.code, error.detail)
        }
        return try reportResponse(report, endpoint: "proximity", started: started, extra: [("reply", reply)])
    }
}

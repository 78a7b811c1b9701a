import Crypto
import Encodings
import Foundation
import HTTPServer
import MDoc
import Proximity
import ReaderAuthentication
import ReportEncoding
import SessionStore
import StrictJSON

/// The backend side of an ISO 18013-5 reader whose device only relays bytes (BLE, NFC stay on the device):
/// `POST /v1/proximity/sessions` and `POST /v1/proximity/sessions/{id}/messages`.
struct ProximityHandler: Sendable {
    let proximity: ServiceConfiguration.Proximity?
    let requestBuilder: DeviceRequestBuilder
    let sessions: SessionGate
    let verification: ResponseVerification
    let clock: RequestClock

    static func problem(_ error: ProximityError) -> ServiceProblem {
        ServiceProblem(.badRequest, error.code.rawValue, error.detail)
    }

    func createSession(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        let proximity = try configured(proximity, "proximity")
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
            readerRequest = .items(try RequestedDocument.items(documents, zeroKnowledge: verification.zeroKnowledge, naming: verification.anchorsToName))
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
            opened = try ProximityReader(builder: requestBuilder)
                .open(engagement: engagement, handover: handover, request: readerRequest, eReaderKey: eReaderKey)
        } catch {
            throw Self.problem(error)
        }
        let session = try await sessions.open(lifetime: TimeInterval(proximity.sessionTTLSeconds), for: integrator) { opening in
            [opened.session.record(id: opening.id, createdAt: opening.createdAt, expiresAt: opening.expiresAt)]
        }
        return .json(.object([
            ("sessionId", .string(session.id)),
            ("expiresAt", .string(ReportJSON.timestamp(session.expiresAt))),
            ("eReaderKey", .string(Data(opened.transcript.eReaderCOSEKey).base64EncodedString())),
            ("sessionEstablishment", .string(Data(opened.sessionEstablishment).base64EncodedString())),
        ]), status: .created)
    }

    func message(_ request: HTTPServerRequest, for integrator: Integrator) async throws(ServiceProblem) -> HTTPServerResponse {
        _ = try configured(proximity, "proximity")
        let body = try RequestDecoding.decode(ProximityMessageBody.self, from: request)
        let time = try clock.verificationTime(body.verificationTime)
        let sessionData = try RequestDecoding.base64(body.sessionData, field: "sessionData")
        return try await sessions.take(request.pathParameters["id"] ?? "", as: ProximitySession.self, for: integrator) { session throws(ServiceProblem) in
            let turn = ProximityTurn(sessionData, session: session)
            let report: VerificationReport
            switch turn.outcome {
            case .failed(let failure):
                report = .failure(failure.code, failure.detail)
            case .verify(let response):
                var options = verification.options(at: time, for: integrator.name,
                                                   readerKey: try? EphemeralReaderKey(rawScalar: Array(session.eReaderKey.rawRepresentation)))
                options.requestedItems = session.requested
                report = await verification.verify(response, sessionTranscript: session.transcript, options: options)
            }
            let reply: JSON? = turn.reply.map { .string(Data($0).base64EncodedString()) }
            return try .report(report, extra: [("reply", reply)])
        }
    }
}

import Foundation
import HTTPServer
import Logging
import ReportEncoding
import ServerTLS
import StrictJSON

/// The outcome of one reload of the HTTPS certificate and key.
public enum TLSReloadOutcome: Sendable {
    case reloaded(TLSContext)
    case refused(TLSSetupError)
    case notConfigured
}

/// Reloading the HTTPS certificate and key without a restart: `POST /v1/admin/tls/reload` (admin group) and SIGHUP.
struct TLSAdminHandler: Sendable {
    let identity: TLSServerIdentity?
    let logger: Logger
    let metrics: ServiceMetrics

    /// Reads the certificate and key files again; new handshakes use the new pair, open connections keep theirs.
    /// A pair that does not load is refused with a log line and the one in force stays.
    func reload(actor: String) -> TLSReloadOutcome {
        guard let identity else { return .notConfigured }
        do {
            let context = try identity.reload()
            logger.notice("tls certificate reloaded", metadata: [
                "actor": "\(actor)", "serial": "\(context.certificateSerial)",
                "notAfter": "\(ReportJSON.timestamp(context.certificateNotAfter))",
            ])
            return .reloaded(context)
        } catch {
            logger.error("tls reload refused; the certificate in force stays", metadata: [
                "actor": "\(actor)", "key": "server.tls.\(error.setting.rawValue)", "reason": "\(error.message)",
            ])
            metrics.tlsReloadFailed()
            return .refused(error)
        }
    }

    /// `POST /v1/admin/tls/reload`.
    func reload(_ request: HTTPServerRequest, by actor: AdminActor) throws(ServiceProblem) -> HTTPServerResponse {
        switch reload(actor: actor.description) {
        case .reloaded(let context):
            return .json(.object([
                ("serial", .string(context.certificateSerial)),
                ("notAfter", .string(ReportJSON.timestamp(context.certificateNotAfter))),
            ]))
        case .refused(let error):
            throw ServiceProblem(.unprocessableContent, "TLS_RELOAD_FAILED",
                                 "server.tls.\(error.setting.rawValue): \(error.message); the certificate in force stays")
        case .notConfigured:
            throw ServiceProblem(.conflict, "TLS_NOT_CONFIGURED", "this server has no server.tls section")
        }
    }
}

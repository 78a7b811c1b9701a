import COpenSSL
import Foundation

/// One immutable OpenSSL server context: the fixed protocol policy with one certificate chain and key loaded.
/// Shared by every handshake made while it is in force; OpenSSL keeps it alive for connections still using it.
public final class TLSContext: @unchecked Sendable {
    // OpenSSL contexts are safe to use from several threads once configured; this one is never changed after init.
    let pointer: OpaquePointer
    /// The served certificate's serial number, lower-case hex.
    public let certificateSerial: String
    /// The served certificate's notAfter.
    public let certificateNotAfter: Date
    /// When this context (and so its session-ticket key) was made.
    public let createdAt: ContinuousClock.Instant

    /// Builds a context from PEM bytes already read. Throws naming the setting at fault.
    init(settings: TLSSettings, chainPEM: [UInt8], keyPEM: [UInt8]) throws(TLSSetupError) {
        OpenSSLErrors.clear()
        let version: Int32 = settings.minimumVersion == .tls13 ? TLS1_3_VERSION : TLS1_2_VERSION
        let lifetime = Int(settings.ticketKeyLifetime.components.seconds)
        guard let context = vd_tls_server_context(version, lifetime) else {
            throw TLSSetupError(.certificateChain, "OpenSSL refused the server policy: \(OpenSSLErrors.take())")
        }
        var ok = false
        defer { if !ok { SSL_CTX_free(context) } }
        let count = chainPEM.withUnsafeBytes { vd_tls_use_certificate_chain(context, $0.baseAddress, Int32($0.count)) }
        if count < 0 {
            throw TLSSetupError(.certificateChain, "\(settings.certificateChain.path) holds a PEM block that is not a "
                                + "usable certificate: \(OpenSSLErrors.take())")
        }
        if count == 0 {
            throw TLSSetupError(.certificateChain, "\(settings.certificateChain.path) holds no PEM CERTIFICATE block")
        }
        let key = keyPEM.withUnsafeBytes { vd_tls_use_private_key(context, $0.baseAddress, Int32($0.count)) }
        if key == 0 {
            throw TLSSetupError(.privateKey, "\(settings.privateKey.path) holds no readable unencrypted PEM private key")
        }
        if key < 0 {
            throw TLSSetupError(.privateKey, "\(settings.privateKey.path) does not match the certificate in "
                                + "\(settings.certificateChain.path)")
        }
        if let clientCA = settings.clientCA {
            guard vd_tls_request_client_certificates(context, clientCA.path) == 1 else {
                throw TLSSetupError(.clientCA, "\(clientCA.path) is not a readable PEM bundle of CA certificates: "
                                    + OpenSSLErrors.take())
            }
        }
        var serial = [CChar](repeating: 0, count: 128)
        let serialText = serial.withUnsafeMutableBufferPointer { p -> String in
            guard let base = p.baseAddress, vd_tls_certificate_serial(context, base, Int32(p.count)) == 1 else { return "" }
            return String(cString: base)
        }
        ok = true
        pointer = context
        certificateSerial = serialText
        certificateNotAfter = Date(timeIntervalSince1970: TimeInterval(vd_tls_certificate_not_after(context)))
        createdAt = .now
        OpenSSLErrors.clear()
    }

    deinit {
        SSL_CTX_free(pointer)
    }
}

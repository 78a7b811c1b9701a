import Crypto
import Foundation

/// The Standard Webhooks signature: `v1,` and the base64 of HMAC-SHA256 under the endpoint's secret over
/// `<webhook-id>.<webhook-timestamp>.<body>`, the body exactly as sent.
public enum StandardWebhookSignature {
    public static func sign(id: String, timestamp: Int64, body: [UInt8], secret: WebhookSecret) -> String {
        var mac = HMAC<SHA256>(key: secret.key)
        mac.update(data: Array("\(id).\(timestamp).".utf8))
        mac.update(data: body)
        return "v1," + Data(mac.finalize()).base64EncodedString()
    }

    /// The three headers of one delivery, as `Name: value` lines.
    public static func headers(id: String, timestamp: Int64, body: [UInt8], secret: WebhookSecret) -> [String] {
        [
            "Content-Type: application/json",
            "webhook-id: \(id)",
            "webhook-timestamp: \(timestamp)",
            "webhook-signature: \(sign(id: id, timestamp: timestamp, body: body, secret: secret))",
        ]
    }
}

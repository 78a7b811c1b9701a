import CBOR
import COSE
import Crypto
import Foundation

/// `device.authentication`: the device signature or device MAC over DeviceAuthenticationBytes, with the MSO
/// device key and the caller's SessionTranscript. When that transcript was supplied by the API's caller rather than
/// built by the verifier (``VerificationOptions/sessionTranscriptSource``), the detail says so.
struct DeviceAuthenticationCheck: DocumentCheck {
    let id = VerificationCheckID.deviceAuthentication

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        // The device key comes from an MSO no trusted issuer vouches for: checking it would prove nothing and
        // would let the sender choose the cost.
        guard context.chain.anchor != nil else {
            return .notApplicable("not checked: the MSO's device key is not vouched for by a trusted IACA")
        }
        guard let deviceSigned = context.document.deviceSigned else {
            return .failed(.deviceAuthMissing, "the document has no deviceSigned")
        }
        // A device key the issuer got wrong is the MSO's failure (mso.deviceKey), not the device's.
        guard case .success(let deviceKey) = context.deviceKey else {
            return .notApplicable("not checked: the MSO's device key is unusable (see mso.deviceKey)")
        }
        let outcome: CheckOutcome
        switch deviceSigned.deviceAuth {
        case .signature(let sign1):
            outcome = verifySignature(sign1, deviceKey: deviceKey, context: context, deviceSigned: deviceSigned)
        case .mac(let mac0):
            outcome = verifyMac(mac0, deviceKey: deviceKey, context: context, deviceSigned: deviceSigned)
        }
        return context.options.sessionTranscriptSource == .caller ? Self.notingCallerTranscript(outcome) : outcome
    }

    static let callerTranscriptNote = "SessionTranscript supplied by the caller: the device authentication proves "
        + "only the transcript the caller chose, not a session of the verifier"

    /// The outcome with ``callerTranscriptNote`` appended to its detail.
    static func notingCallerTranscript(_ outcome: CheckOutcome) -> CheckOutcome {
        let note = { (detail: String?) in detail.map { "\($0); \(callerTranscriptNote)" } ?? callerTranscriptNote }
        switch outcome {
        case .passed(let detail): return .passed(note(detail))
        case .failed(let code, let detail): return .failed(code, note(detail))
        case .warning(let code, let detail): return .warning(code, note(detail))
        case .notApplicable(let detail): return .notApplicable(note(detail))
        }
    }

    func verifySignature(_ sign1: COSESign1, deviceKey: COSEKey, context: DocumentContext, deviceSigned: DeviceSigned)
        -> CheckOutcome
    {
        guard sign1.payload == nil else {
            return .failed(.deviceSignatureInvalid, "deviceSignature payload must be detached (null)")
        }
        let payload = Self.deviceAuthenticationBytes(context: context, deviceSigned: deviceSigned)
        do {
            try sign1.verify(using: deviceKey.publicKey, detachedPayload: payload[...])
            return .passed("\(sign1.headers.algorithmDescription) device signature")
        } catch {
            return .failed(.deviceSignatureInvalid, error.description)
        }
    }

    func verifyMac(_ mac0: COSEMac0, deviceKey: COSEKey, context: DocumentContext, deviceSigned: DeviceSigned)
        -> CheckOutcome
    {
        guard let readerKey = context.options.readerKey else {
            return .failed(.readerKeyRequired, "deviceMac needs the reader's ephemeral private key")
        }
        guard mac0.payload == nil else {
            return .failed(.deviceMacInvalid, "deviceMac payload must be detached (null)")
        }
        let sharedSecret: SharedSecret
        do {
            sharedSecret = try readerKey.sharedSecret(withX963: deviceKey.x963Representation)
        } catch {
            return .failed(.deviceMacInvalid, "the reader key and the MSO device key are not on the same curve")
        }
        let eMacKey = Self.eMacKey(sharedSecret: sharedSecret, sessionTranscript: context.sessionTranscript)
        let payload = Self.deviceAuthenticationBytes(context: context, deviceSigned: deviceSigned)
        do {
            try mac0.verify(using: eMacKey, detachedPayload: payload[...])
            return .passed("HMAC 256/256 device MAC")
        } catch {
            return .failed(.deviceMacInvalid, error.description)
        }
    }

    /// EMacKey = HKDF-SHA256(ECDH secret, salt = SHA-256(SessionTranscriptBytes), info = "EMacKey", 32 bytes), where
    /// SessionTranscriptBytes = `#6.24(bstr .cbor SessionTranscript)`.
    static func eMacKey(sharedSecret: SharedSecret, sessionTranscript: [UInt8]) -> SymmetricKey {
        let salt = SHA256.hash(data: EmbeddedCBOR.tag24(sessionTranscript))
        return sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: Array(salt), sharedInfo: Array("EMacKey".utf8), outputByteCount: 32)
    }

    /// `#6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes])`, with the
    /// transcript and the namespaces embedded exactly as received.
    static func deviceAuthenticationBytes(context: DocumentContext, deviceSigned: DeviceSigned) -> [UInt8] {
        let content = CBOREncoder().encode([
            "DeviceAuthentication",
            .encoded(context.sessionTranscript),
            .text(context.document.docType),
            .encoded(Array(deviceSigned.nameSpacesBytes)),
        ])
        return EmbeddedCBOR.tag24(content)
    }
}

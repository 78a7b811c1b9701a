import CBOR
import Crypto
import MDoc
import ReaderAuthentication

/// The reader's half of an ISO 18013-5 session, run on the backend for a device that only relays bytes.
///
/// ``open(engagement:handover:request:eReaderKey:)`` makes the ephemeral reader key, the transcript and the session
/// keys, and encrypts the DeviceRequest into a SessionEstablishment; ``receive(_:session:)`` decrypts the mdoc's
/// SessionData and parses the DeviceResponse in it.
public struct ProximityReader: Sendable {
    public let builder: DeviceRequestBuilder

    public init(builder: DeviceRequestBuilder) {
        self.builder = builder
    }

    /// What the reader asks: elements (we build and sign the DeviceRequest) or a DeviceRequest sent as is.
    public enum Request: Sendable {
        case items(RequestedItems)
        case deviceRequest([UInt8])
    }

    public struct Opened: Sendable {
        public let session: ProximitySession
        public let transcript: ProximityTranscript
        /// `{"eReaderKey", "data"}` for the reader to send.
        public let sessionEstablishment: [UInt8]
        /// The DeviceRequest before encryption.
        public let deviceRequest: [UInt8]
    }

    public func open(engagement: DeviceEngagement, handover: [UInt8]?, request: Request,
                     eReaderKey: P256.KeyAgreement.PrivateKey = .init()) throws(ProximityError) -> Opened
    {
        if let handover { try ProximityTranscript.checkHandover(handover) }
        let transcript = ProximityTranscript(engagement: engagement, eReaderKey: eReaderKey.publicKey, handover: handover)
        let requested: RequestedItems
        let deviceRequest: [UInt8]
        switch request {
        case .items(let items):
            requested = items
            do {
                deviceRequest = try builder.build(items, sessionTranscript: transcript.bytes)
            } catch {
                throw ProximityError(.deviceRequestInvalid, "the request could not be signed")
            }
        case .deviceRequest(let bytes):
            requested = try DeviceRequestItems.requested(in: bytes)
            deviceRequest = bytes
        }
        let data: [UInt8]
        do {
            let keys = try SessionKeys(eReaderKey: eReaderKey, eDeviceKey: engagement.eDeviceKey,
                                       sessionTranscriptBytes: transcript.taggedBytes)
            data = try SessionCipher.seal(deviceRequest, key: keys.skReader, sender: .reader, counter: 1)
        } catch {
            throw ProximityError(.deviceEngagementInvalid, "no session key could be agreed with EDeviceKey")
        }
        return Opened(
            session: ProximitySession(eReaderKey: eReaderKey, eDeviceKey: engagement.eDeviceKey, transcript: transcript.bytes,
                                      requested: requested),
            transcript: transcript,
            sessionEstablishment: SessionEstablishment.encode(eReaderKeyBytes: transcript.eReaderKeyBytes, data: data),
            deviceRequest: deviceRequest)
    }

    /// What the mdoc's message held.
    public enum Received: Sendable {
        case response(DeviceResponse, plaintext: [UInt8])
        /// The mdoc ended the session with this status and no data.
        case ended(status: UInt64)
    }

    /// Decrypts the mdoc's first message (counter 1 with SKDevice). When that fails, a few bounded trials say why:
    /// another counter (`SESSION_COUNTER_INVALID`), the reader's key (`SESSION_KEY_MISMATCH`), or neither
    /// (`DECRYPTION_FAILED`).
    public static func receive(_ bytes: [UInt8], session: ProximitySession) throws(ResponseFailure) -> Received {
        let message = try SessionData(bytes: bytes)
        guard let data = message.data else { return .ended(status: message.status ?? 0) }
        let keys: SessionKeys
        do {
            keys = try SessionKeys(eReaderKey: session.eReaderKey, eDeviceKey: session.eDeviceKey,
                                   sessionTranscriptBytes: CBOREncoder().encode(.tagged(CBORTag.encodedCBOR, .bytes(session.transcript))))
        } catch {
            throw ResponseFailure(.decryptionFailed, "no session key")
        }
        let plaintext: [UInt8]
        if let opened = try? SessionCipher.open(data, key: keys.skDevice, sender: .mdoc, counter: 1) {
            plaintext = opened
        } else {
            for counter: UInt32 in 2...4 where (try? SessionCipher.open(data, key: keys.skDevice, sender: .mdoc, counter: counter)) != nil {
                throw ResponseFailure(.sessionCounterInvalid, "the mdoc used message counter \(counter); 1 was expected")
            }
            for sender in [SessionCipher.Sender.mdoc, .reader]
                where (try? SessionCipher.open(data, key: keys.skReader, sender: sender, counter: 1)) != nil {
                throw ResponseFailure(.sessionKeyMismatch, "the mdoc encrypted with SKReader; its messages use SKDevice")
            }
            throw ResponseFailure(.decryptionFailed, "the SessionData could not be decrypted with SKDevice")
        }
        do {
            return .response(try DeviceResponse(bytes: plaintext), plaintext: plaintext)
        } catch {
            throw ResponseFailure(error.code, error.description)
        }
    }
}

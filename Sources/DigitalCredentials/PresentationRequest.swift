import MDoc
import OpenID4VP
import ReaderAuthentication
import StrictJSON
import WebPresentment

/// One request for a credential, offered over every protocol the caller allows, all bound to one
/// ``PresentationSession``: what a page passes unchanged as `navigator.credentials.get({digital: ...})`.
public struct PresentationRequest: Sendable {
    /// What was asked for in a protocol's request could not be made.
    public struct Failure: Error, Sendable {
        public enum Reason: Sendable {
            /// No protocol could carry the request (none allowed, or none fits what is asked for).
            case nothingToOffer
            /// A request could not be signed with the reader key.
            case signingFailed
        }

        public let reason: Reason
        public let detail: String
    }

    /// The session its answer is verified against.
    public let session: PresentationSession
    /// `{"requests": [{"protocol", "data"}, ...]}` in the order offered.
    public let digital: JSON

    /// The requests for `query`, in the order of `preference`, each only when it can be made: Annex C when
    /// `webOrigin` is given and ``annexCItems(_:)`` can express the query, OpenID4VP signed when `signer` and
    /// `openID4VPOrigin` are given, unsigned when `openID4VPOrigin` is given (a document that requires a
    /// zero-knowledge proof is asked as `mso_mdoc_zk` there, `zkRequest` in Annex C). OpenID4VP answers are always encrypted
    /// (`dc_api.jwt`). Each protocol has its own nonce and keys.
    /// `registrationCertificate` goes with the signed requests: in OpenID4VP's `verifier_info` and the Annex C
    /// request's `requestInfo`.
    /// `transactionData` goes with the OpenID4VP requests only: with it, Annex C (which cannot carry it) is not offered.
    public init(query: DCQLQuery, preference: [DigitalCredentialProtocol], webOrigin: SerializedOrigin?,
                openID4VPOrigin: String?, builder: DeviceRequestBuilder, signer: RequestObjectSigner?,
                registrationCertificate: RegistrationCertificate? = nil, transactionData: TransactionData? = nil) throws(Failure)
    {
        var offered: [DigitalCredentialProtocol] = []
        var requests: [JSON] = []
        var web: WebSession?
        var signed: OpenID4VPSession?
        var unsigned: OpenID4VPSession?
        for offer in preference where !offered.contains(offer) {
            switch offer {
            case .isoMdoc:
                guard transactionData == nil, let origin = webOrigin, let items = Self.annexCItems(query) else { continue }
                let made: WebRequest
                do {
                    made = try WebRequest(origin: origin, requested: items, builder: builder.registering(registrationCertificate?.compact))
                } catch {
                    throw Failure(reason: .signingFailed, detail: "the Annex C request could not be signed")
                }
                web = WebSession(made)
                requests.append(.object([("protocol", .string(offer.rawValue)), ("data", .object([
                    ("deviceRequest", .string(made.deviceRequest)), ("encryptionInfo", .string(made.encryptionInfo.base64URL)),
                ]))]))
            case .openID4VPSigned, .openID4VPUnsigned:
                guard let origin = openID4VPOrigin else { continue }
                let key = offer == .openID4VPSigned ? signer : nil
                if offer == .openID4VPSigned && key == nil { continue }
                let made: OpenID4VPRequest
                do {
                    made = try OpenID4VPRequest(origin: origin, query: query, mode: .dcAPIJWT, signer: key,
                                                verifierInfo: registrationCertificate.map { [$0.verifierInfo] } ?? [],
                                                transactionData: transactionData)
                } catch {
                    throw Failure(reason: .signingFailed, detail: "the OpenID4VP request object could not be signed")
                }
                if offer == .openID4VPSigned { signed = made.session } else { unsigned = made.session }
                requests.append(made.digitalCredentialsRequest)
            }
            offered.append(offer)
        }
        guard let session = PresentationSession(offered: offered, web: web, signed: signed, unsigned: unsigned) else {
            throw Failure(reason: .nothingToOffer, detail: "no protocol can carry this request for this origin: "
                              + "Annex C needs an origin in web.allowedOrigins and only mso_mdoc credentials without "
                              + "credential_sets or transaction data; OpenID4VP an origin in oid4vp.allowedOrigins (and readerAuth to sign)")
        }
        self.session = session
        digital = .object([("requests", .array(requests))])
    }

    /// What an Annex C DeviceRequest asks for the same query, or nil when it cannot say the same: a `dc+sd-jwt`
    /// credential, `credential_sets` (alternatives a DeviceRequest cannot express), a credential asked for more
    /// than once (`multiple`), or two credential queries of one docType (two DocRequests of one docType can be
    /// answered by one document, so the answer could not be matched to the queries). A credential's `claim_sets`
    /// become every claim they name, as DCQL reads them.
    public static func annexCItems(_ query: DCQLQuery) -> RequestedItems? {
        guard !query.asksForSDJWTVC, query.credentialSets.isEmpty, !query.credentials.isEmpty,
              !query.credentials.contains(where: \.multiple) else { return nil }
        let docTypes = query.credentials.map(\.document.docType)
        guard Set(docTypes).count == docTypes.count else { return nil }
        return query.requested
    }
}

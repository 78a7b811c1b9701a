import DigitalCredentials
import Foundation
import MDoc
import OpenID4VP
import Testing
import WebPresentment

/// One request offered over several protocols: the order of preference, and each protocol only when it can be made
/// (a signer for the signed request, an origin allowed for its flow, a query Annex C can express).
struct PresentationRequestTests {
    typealias F = PresentationFixtures

    func offered(_ made: PresentationRequest) throws -> [String] {
        let names = try F.requests(made.digital).map { $0.name }
        // The session and the `digital` object the page passes on agree, in order.
        #expect(names == made.session.offered.map(\.rawValue))
        return names
    }

    /// The default preference, then every order a configuration may give: the requests follow it exactly.
    static let preferences: [[DigitalCredentialProtocol]] = [
        [.openID4VPSigned, .isoMdoc],
        [.isoMdoc, .openID4VPSigned],
        [.openID4VPUnsigned, .isoMdoc, .openID4VPSigned],
        [.isoMdoc, .openID4VPUnsigned],
        [.openID4VPSigned],
    ]

    @Test(arguments: PresentationRequestTests.preferences)
    func theRequestsFollowThePreference(_ preference: [DigitalCredentialProtocol]) throws {
        let made = try F.request(preference)
        #expect(try offered(made) == preference.map(\.rawValue))
    }

    @Test func theDefaultPreferenceIsSignedThenAnnexCWithoutUnsigned() throws {
        #expect(DigitalCredentialProtocol.defaultPreference == [.openID4VPSigned, .isoMdoc])
        #expect(try offered(try F.request()) == ["openid4vp-v1-signed", "org-iso-mdoc"])
    }

    /// A protocol listed twice is offered once, where it is first listed.
    @Test func aProtocolIsOfferedOnce() throws {
        let made = try F.request([.isoMdoc, .openID4VPSigned, .isoMdoc, .openID4VPSigned])
        #expect(try offered(made) == ["org-iso-mdoc", "openid4vp-v1-signed"])
    }

    /// Without a signer there is no signed request; the unsigned one (when preferred) and Annex C still are.
    @Test func noSignerNoSignedRequest() throws {
        #expect(try offered(try F.request(signed: false)) == ["org-iso-mdoc"])
        #expect(try offered(try F.request([.openID4VPSigned, .openID4VPUnsigned, .isoMdoc], signed: false))
                == ["openid4vp-v1-unsigned", "org-iso-mdoc"])
        // With the signer, the same preference offers all three.
        #expect(try offered(try F.request([.openID4VPSigned, .openID4VPUnsigned, .isoMdoc]))
                == ["openid4vp-v1-signed", "openid4vp-v1-unsigned", "org-iso-mdoc"])
    }

    /// Each protocol only for an origin its flow allows.
    @Test func eachProtocolNeedsItsFlowsOrigin() throws {
        #expect(try offered(try F.request(openID4VP: false)) == ["org-iso-mdoc"])
        #expect(try offered(try F.request(web: false)) == ["openid4vp-v1-signed"])
        #expect(try offered(try F.request([.openID4VPUnsigned, .isoMdoc], web: false)) == ["openid4vp-v1-unsigned"])
    }

    /// What a DeviceRequest cannot say (an SD-JWT VC, credential_sets, `multiple`) is not offered as Annex C; the
    /// same mdoc query without it is.
    @Test(arguments: [PresentationFixtures.sdJwtVc, PresentationFixtures.credentialSets, PresentationFixtures.multiple])
    func annexCOnlyForWhatADeviceRequestCanSay(_ json: String) throws {
        let query = try F.query(json)
        #expect(PresentationRequest.annexCItems(query) == nil)
        #expect(try offered(try F.request(query: query)) == ["openid4vp-v1-signed"])
        #expect(try offered(try F.request([.isoMdoc, .openID4VPUnsigned], query: query)) == ["openid4vp-v1-unsigned"])
    }

    @Test func aPlainMdocQueryIsOfferedAsAnnexCForTheSameItems() throws {
        let query = try F.query(F.plainMdoc)
        #expect(PresentationRequest.annexCItems(query) == query.requested)
        let made = try F.request(query: query)
        #expect(try offered(made) == ["openid4vp-v1-signed", "org-iso-mdoc"])
        #expect(made.session.web?.requested == query.requested)
        #expect(made.session.signed?.query == query)
    }

    func reason(_ preference: [DigitalCredentialProtocol], _ query: DCQLQuery, web: Bool, oid4vp: Bool,
                signer: RequestObjectSigner?) -> PresentationRequest.Failure.Reason?
    {
        do throws(PresentationRequest.Failure) {
            _ = try PresentationRequest(query: query, preference: preference, webOrigin: web ? F.webOrigin : nil,
                                        openID4VPOrigin: oid4vp ? F.origin : nil, builder: F.builder, signer: signer)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Nothing to offer: no origin allowed by any flow, a preference whose protocols all lack what they need, or a
    /// query only OpenID4VP can carry for an origin only the web flow allows.
    @Test func nothingToOfferIsRefused() throws {
        let signer = try F.signer()
        let all = DigitalCredentialProtocol.defaultPreference
        let sdJwt = try F.query(F.sdJwtVc)
        #expect(reason(all, F.mdlQuery, web: false, oid4vp: false, signer: signer) == .nothingToOffer)
        #expect(reason([.openID4VPSigned], F.mdlQuery, web: true, oid4vp: true, signer: nil) == .nothingToOffer)
        #expect(reason([], F.mdlQuery, web: true, oid4vp: true, signer: signer) == .nothingToOffer)
        #expect(reason(all, sdJwt, web: true, oid4vp: false, signer: signer) == .nothingToOffer)
        // Each with the one thing it lacked is a request.
        #expect(reason(all, F.mdlQuery, web: true, oid4vp: false, signer: signer) == nil)
        #expect(reason([.openID4VPSigned], F.mdlQuery, web: true, oid4vp: true, signer: signer) == nil)
        #expect(reason([.isoMdoc], F.mdlQuery, web: true, oid4vp: true, signer: signer) == nil)
        #expect(reason(all, sdJwt, web: true, oid4vp: true, signer: signer) == nil)
    }

    /// Each protocol has its own nonce and keys, and its session what its wallet is told.
    @Test func eachProtocolHasItsOwnNonceAndKeys() throws {
        let made = try F.request([.openID4VPSigned, .isoMdoc, .openID4VPUnsigned])
        let web = try #require(made.session.web)
        let signed = try #require(made.session.signed)
        let unsigned = try #require(made.session.unsigned)
        #expect(Set([signed.nonce, unsigned.nonce]).count == 2)
        #expect(try EncryptionInfo(base64URL: web.encryptionInfo).nonce.count == EncryptionInfo.nonceLength)
        let signedKey = try #require(signed.key)
        let unsignedKey = try #require(unsigned.key)
        let keys = [web.recipientKey.rawRepresentation, signedKey.privateKey.rawRepresentation,
                    unsignedKey.privateKey.rawRepresentation]
        #expect(Set(keys).count == 3)
        #expect(signedKey.kid != unsignedKey.kid)
        #expect(web.origin == F.webOrigin && signed.origin == F.origin && unsigned.origin == F.origin)
        let clientId = try F.signer().clientId
        #expect(signed.clientId == clientId && unsigned.clientId == nil)
        #expect(signed.mode == .dcAPIJWT && unsigned.mode == .dcAPIJWT, "OpenID4VP answers are always encrypted")
        #expect(signed.flow == .digitalCredentialsAPI && unsigned.flow == .digitalCredentialsAPI)

        // The page gets what each wallet needs: Annex C's two strings, the JWS, the unsigned parameters.
        let requests = try F.requests(made.digital)
        #expect(requests[0].data.keys.sorted() == ["request"])
        #expect(Set(requests[1].data.keys) == ["deviceRequest", "encryptionInfo"])
        #expect(requests[1].data["encryptionInfo"] as? String == web.encryptionInfo)
        #expect(requests[2].data["nonce"] as? String == unsigned.nonce && requests[2].data["client_id"] == nil)
        #expect(requests[2].data["response_mode"] as? String == "dc_api.jwt")
    }

    /// Two requests never share a nonce or a key.
    @Test func requestsAreFresh() throws {
        let first = try F.request(), second = try F.request()
        #expect(first.session.signed?.nonce != second.session.signed?.nonce)
        #expect(first.session.web?.encryptionInfo != second.session.web?.encryptionInfo)
    }
}

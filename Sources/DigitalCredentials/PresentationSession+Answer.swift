import MDoc
import OpenID4VP
import StrictJSON

extension PresentationSession {
    /// Verifies `credential` by the rules of the protocol it names, against that protocol's part of this session.
    /// A protocol this session did not offer is refused (``PresentationRefusal``), never verified against another's
    /// part. An answer whose `data` does not have its protocol's shape is a failed verdict (`ENVELOPE_MALFORMED`).
    public func verify(_ credential: DigitalCredentialResponse, mdoc: DeviceResponseCheck, openID4VP: OpenID4VPVerifier)
        async throws(PresentationRefusal) -> PresentationVerdict
    {
        guard let offer = DigitalCredentialProtocol(rawValue: credential.protocol), offered.contains(offer) else {
            let named = String(credential.protocol.prefix(64))
            throw PresentationRefusal(detail: "the answer's protocol \"\(named)\" is not one this session offered "
                                          + "(\(offered.map(\.rawValue).joined(separator: ", ")))")
        }
        switch offer {
        case .isoMdoc:
            guard let web else { throw PresentationRefusal(detail: "no Annex C request was offered") }
            guard case .object(let members) = credential.data, members.count == 1, case .string(let response)? = members["response"]
            else {
                return .isoMdoc(.failure(.envelopeMalformed, "org-iso-mdoc data is {\"response\": \"<base64url>\"} and nothing else"))
            }
            return .isoMdoc(await web.verifyAnswer(response, check: mdoc))
        case .openID4VPSigned, .openID4VPUnsigned:
            guard let session = offer == .openID4VPSigned ? signed : unsigned else {
                throw PresentationRefusal(detail: "no \(offer.rawValue) request was offered")
            }
            do throws(ResponseFailure) {
                let answer = try WalletAnswer(rawJSON: credential.data)
                return .openID4VP(offer, await openID4VP.verify(answer, session: session))
            } catch {
                return .openID4VP(offer, OpenID4VPVerdict(report: .failure(error.code, error.detail), credentialIds: []))
            }
        }
    }
}

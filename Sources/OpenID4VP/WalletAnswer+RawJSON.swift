import MDoc
import StrictJSON

extension WalletAnswer {
    /// `DigitalCredential.data` already decoded as JSON (the multi-protocol answer): the same members and rules as
    /// ``init(_:)``; members that are not strings (or, for `vp_token`, credential ids to arrays of strings) where
    /// they should be are `ENVELOPE_MALFORMED`.
    public init(rawJSON data: RawJSON) throws(ResponseFailure) {
        let malformed = ResponseFailure(.envelopeMalformed, "the wallet's answer is an object with a string response, a vp_token of "
                                            + "credential ids to arrays of strings, or a string error")
        // Counts are the presentation checks' to judge, with their own codes, as for every other answer.
        guard case .object(let members) = data else { throw malformed }
        func text(_ name: String) throws(ResponseFailure) -> String? {
            guard let value = members[name] else { return nil }
            guard case .string(let text) = value else { throw malformed }
            return text
        }
        var token: VPToken?
        if let value = members["vp_token"] {
            guard case .object(let credentials) = value else { throw malformed }
            var presentations: [String: [String]] = [:]
            for (id, entry) in credentials {
                guard case .array(let items) = entry else { throw malformed }
                var texts: [String] = []
                for item in items {
                    guard case .string(let text) = item else { throw malformed }
                    texts.append(text)
                }
                presentations[id] = texts
            }
            token = VPToken(presentations: presentations)
        }
        try self.init(Data(response: try text("response"), vp_token: token, error: try text("error"),
                           error_description: try text("error_description")))
    }
}

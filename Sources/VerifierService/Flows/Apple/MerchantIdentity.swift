/// The merchant and team IDs for a request: the configured ones, or ones the request names that the configuration
/// allows. Nothing a request says about itself is trusted beyond that list.
struct MerchantIdentity: Sendable, Equatable {
    let merchantId: String
    let teamId: String

    init(_ apple: ServiceConfiguration.Apple, merchantId: String?, teamId: String?) throws(ServiceProblem) {
        let merchant = merchantId ?? apple.merchantId
        let team = teamId ?? apple.teamId
        guard apple.allows(merchantId: merchant) else {
            throw ServiceProblem(.badRequest, "MERCHANT_ID_NOT_ALLOWED",
                                 "\"merchantId\" is neither apple.merchantId nor listed in apple.allowedMerchantIds")
        }
        guard apple.allows(teamId: team) else {
            throw ServiceProblem(.badRequest, "TEAM_ID_NOT_ALLOWED",
                                 "\"teamId\" is neither apple.teamId nor listed in apple.allowedTeamIds")
        }
        self.init(merchantId: merchant, teamId: team)
    }

    /// IDs an operator gives directly (the CLI), not checked against the configuration.
    init(merchantId: String, teamId: String) {
        self.merchantId = merchantId
        self.teamId = teamId
    }
}

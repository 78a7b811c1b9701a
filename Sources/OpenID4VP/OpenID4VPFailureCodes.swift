import MDoc

extension FailureCode {
    /// The wallet answered with an OpenID4VP error (e.g. `access_denied`) instead of a presentation.
    public static let walletDeclined = FailureCode(rawValue: "WALLET_DECLINED")
    /// The `vp_token` is not an object of credential ids to arrays of presentations as the query allows (no
    /// presentation, or several for a credential query without `multiple`).
    public static let vpTokenMalformed = FailureCode(rawValue: "VP_TOKEN_MALFORMED")
    /// The request carried transaction data that no presented credential could approve (every credential query its
    /// `credential_ids` name went unanswered).
    public static let transactionDataNotApproved = FailureCode(rawValue: "TRANSACTION_DATA_NOT_APPROVED")
    /// Every code this module answers with.
    public static let openID4VPCodes: [FailureCode] = [.walletDeclined, .vpTokenMalformed, .transactionDataNotApproved]
}

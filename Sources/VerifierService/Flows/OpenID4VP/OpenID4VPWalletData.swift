import OpenID4VP

/// `credential.data` as the browser hands it over; decoded leniently (members are the wallet's to add), then read
/// as exactly one of `response`, `vp_token`, `error` by ``WalletAnswer``.
typealias OpenID4VPWalletData = WalletAnswer.Data

/// Which list a source is (ETSI TS 119 602 Annexes D–I and the Commission's mDL providers list): decides the EU
/// profile the list is checked against and what its services grant.
public enum LoTEKind: String, Sendable, CaseIterable {
    /// The Commission's mDL providers list: IACAs for mdoc issuance, and revocation signers.
    case mdl
    /// PID providers (Annex D).
    case pid
    /// Wallet providers (Annex E).
    case wallet
    /// Providers of wallet-relying party access certificates (Annex F).
    case wrpac
    /// Providers of wallet-relying party registration certificates (Annex G).
    case wrprc
    /// Public-sector EAA providers (Annex H), the one profile with a service status.
    case pubeaa
    /// Registrars and registers (Annex I).
    case registrars
}

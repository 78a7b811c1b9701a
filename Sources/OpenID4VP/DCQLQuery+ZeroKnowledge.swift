import ZKMdoc

extension DCQLQuery {
    /// A system an `mso_mdoc_zk` credential names that `verifier` does not accept as the same system (by its configured
    /// id or circuit hash, with the same parameters), as (credential id, system id); nil when every named system is
    /// accepted. Without a verifier (no `zk` section) every named system is refused, so a wallet's `zkSystemId` is always
    /// one the verifier can find.
    public func zeroKnowledgeSystemNotAccepted(by verifier: ZkDocumentVerifier?) -> (credentialId: String, systemId: String)? {
        for credential in credentials {
            for system in credential.document.zeroKnowledge?.systems ?? [] where verifier?.system(named: system.id)?.spec != system.spec {
                return (credential.id, system.id)
            }
        }
        return nil
    }
}

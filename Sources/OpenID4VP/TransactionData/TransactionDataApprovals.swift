import MDoc
import SDJWTVC

/// What no single credential can judge: every transaction data entry approved exactly once across the answer
/// (OpenID4VP 1.0 §5.1: of several credentials an entry names, the wallet uses only one). Runs on the per-credential
/// reports, whose `sdjwt.transactionData` already holds each KB-JWT to the entries addressed to it.
enum TransactionDataApprovals {
    /// The documents with each entry's missing or second approval failed on the credentials concerned, or the
    /// answer's failure when an entry names no credential that was presented.
    static func judge(_ documents: [OpenID4VPVerdict.Document], transactionData: TransactionData)
        -> Result<[OpenID4VPVerdict.Document], ResponseFailure>
    {
        var documents = documents
        for (index, entry) in transactionData.entries.enumerated() {
            let approvers = documents.indices.filter { position in
                guard case .sdJwtVc(let report) = documents[position].report else { return false }
                return report.approvedTransactionData.contains { $0.index == index }
            }
            for position in approvers.dropFirst() {
                fail(&documents[position], FailureCode(.transactionDataApprovedTwice),
                     "transaction_data[\(index)] is already approved by another presented credential; OpenID4VP 1.0 §5.1 lets only one approve it")
            }
            guard approvers.isEmpty else { continue }
            let naming = documents.indices.filter { entry.credentialIds.contains(documents[$0].credentialId) }
            guard !naming.isEmpty else {
                return .failure(ResponseFailure(.transactionDataNotApproved, "transaction_data[\(index)] (type \"\(entry.type.prefix(128))\") "
                                                + "names credential queries the answer does not present, so nothing approved it"))
            }
            for position in naming {
                guard case .sdJwtVc(let report) = documents[position].report, report.check(.transactionData)?.status != .failed else { continue }
                fail(&documents[position], FailureCode(.transactionDataHashMissing),
                     "transaction_data[\(index)] (type \"\(entry.type.prefix(128))\") is approved by none of the credentials it names")
            }
        }
        return .success(documents)
    }

    static func fail(_ document: inout OpenID4VPVerdict.Document, _ code: FailureCode, _ detail: String) {
        guard case .sdJwtVc(let report) = document.report else { return }
        let failed = SDJWTVCCheckResult(id: .transactionData, status: .failed, code: code, detail: detail)
        document = OpenID4VPVerdict.Document(credentialId: document.credentialId, report: .sdJwtVc(report.replacing(failed)))
    }
}

import Encodings
import TrustStore

extension VerifiedVICAL {
    /// Whether this list may follow `inForce`, the source's list in force (ISO 18013-5 Annex C: `vicalIssueID`
    /// increases with each issue). A list never goes back: a lower `vicalIssueID` (or, without one, an older `date`)
    /// than the list in force is a rollback; the same issue ID with other content is refused too. Once a source's
    /// list in force has an issue ID, a list without one is refused as a rollback as well: accepting it would reset
    /// the sequence, after which an older issue would import again.
    public func checkSuccession(after inForce: TrustListRecord?) throws(VICALError) {
        guard let inForce else { return }
        if vical.issueID == nil, let old = inForce.issueID {
            throw VICALError(.rollback, "the list has no vicalIssueID, but the list in force for this source has "
                             + "vicalIssueID \(old): a later list must carry a higher one")
        }
        if let new = vical.issueID, let old = inForce.issueID {
            if new < old {
                throw VICALError(.rollback, "vicalIssueID \(new) is lower than \(old), the list in force")
            }
            if new == old && sha256 != inForce.sha256 {
                throw VICALError(.issueIDReused, "vicalIssueID \(new) is the one in force, with other content")
            }
        } else if vical.date < inForce.date {
            throw VICALError(.rollback, "the list is dated before the one in force (\(RFC3339Timestamp.string(inForce.date)))")
        }
    }
}

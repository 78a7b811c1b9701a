import SwiftASN1

extension ASN1Node {
    /// The elements of a constructed node with `identifier` (a SEQUENCE OF), or a refusal.
    func children(_ identifier: ASN1Identifier = .sequence) throws(CertificateRevocationList.Malformed) -> [ASN1Node] {
        guard self.identifier == identifier, case .constructed(let nodes) = content else {
            throw CertificateRevocationList.Malformed(detail: "expected a constructed \(identifier)")
        }
        return Array(nodes)
    }
}

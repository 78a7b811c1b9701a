/// The namespace a zero-knowledge document's elements are read under, fixed by its docType: the proof binds
/// identifiers and values but not the namespace, so a document's own claim is only checked against this.
public enum ZKNameSpaces {
    public static let byDocType: [String: String] = [
        "org.iso.18013.5.1.mDL": "org.iso.18013.5.1",
        "eu.europa.ec.av.1": "eu.europa.ec.av.1",
        "eu.europa.ec.eudi.pid.1": "eu.europa.ec.eudi.pid.1",
    ]

    /// The namespace for `docType`, or nil when verifierd reads no ZK document of that type.
    public static func nameSpace(for docType: String) -> String? { byDocType[docType] }
}

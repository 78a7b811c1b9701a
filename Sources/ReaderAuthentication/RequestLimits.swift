import MDoc

/// What a caller may ask for in one request, and the default.
public enum RequestLimits {
    public static let maximumDocuments = DeviceResponse.maximumDocuments
    public static let maximumElementsPerDocument = 256
    public static let maximumNameLength = 256

    /// mDL family_name, given_name, birth_date and age_over_21, none retained.
    public static let defaultRequest = RequestedItems(documents: [
        .init(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
            (nameSpace: "org.iso.18013.5.1", elements: ["family_name", "given_name", "birth_date", "age_over_21"]
                .map { RequestedItems.Element($0, intentToRetain: false) }),
        ]),
    ])

    /// Nil when the request is within limits, else why not.
    public static func problem(with requested: RequestedItems) -> String? {
        guard !requested.documents.isEmpty else { return "\"documents\" is empty" }
        guard requested.documents.count <= maximumDocuments else {
            return "\"documents\" lists \(requested.documents.count) entries; at most \(maximumDocuments)"
        }
        for (index, document) in requested.documents.enumerated() {
            let names = [document.docType] + document.nameSpaces.map(\.nameSpace)
                + document.nameSpaces.flatMap { $0.elements.map(\.identifier) }
            guard names.allSatisfy({ !$0.isEmpty && $0.utf8.count <= maximumNameLength }) else {
                return "documents[\(index)] has an empty name or one longer than \(maximumNameLength) bytes"
            }
            let count = document.nameSpaces.reduce(0) { $0 + $1.elements.count }
            guard count > 0 else { return "documents[\(index)] requests no element" }
            guard count <= maximumElementsPerDocument else {
                return "documents[\(index)] requests \(count) elements; at most \(maximumElementsPerDocument)"
            }
        }
        return nil
    }
}

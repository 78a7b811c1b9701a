import StrictJSON

extension JSON {
    /// A string, or null when there is none.
    static func nullable(_ text: String?) -> JSON { text.map { JSON.string($0) } ?? .null }
}

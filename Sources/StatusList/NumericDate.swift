import CBOR
import Foundation

/// A CWT NumericDate (RFC 8392 §2, after RFC 7519 §2): seconds since the epoch as a CBOR integer or floating-point
/// number, without the tag 1 that a CBOR epoch date would carry. Used for the `exp`, `iat` and `ttl` claims of status
/// list tokens.
enum NumericDate {
    /// The claim's value in seconds; nil when the claim is absent. Any other type (a tag-1 date, text, a boolean), a
    /// NaN or an infinity throws naming the claim, so an unreadable date is never mistaken for an absent one.
    static func seconds(_ item: CBORItem?, claim: String) throws(StatusListError) -> Double? {
        guard let item else { return nil }
        if let unsigned = item.unsignedValue { return Double(unsigned) }
        if let integer = item.intValue { return Double(integer) }
        if let float = item.floatValue {
            guard float.isFinite else { throw StatusListError("\(claim) is not a finite number") }
            return float
        }
        throw StatusListError("\(claim) is \(item.kindWithArticle), not a NumericDate (an integer or a float)")
    }
}

import Crypto
import SwiftASN1
import X509

/// What is wrong with DER input (a certificate, an extension, a key), in a few words of its own: never a parser
/// library's description, which names the library's source file and line and its error type.
public enum DERProblem {
    /// A short, library-independent phrase for why parsing failed, e.g. "the DER is truncated".
    public static func phrase(_ error: any Error) -> String {
        switch error {
        case let error as ASN1Error: return phrase(error.code)
        case let error as CertificateError: return phrase(error.code)
        case let error as CryptoKitASN1Error: return phrase(error)
        case let error as CryptoKitError: return phrase(error)
        default: return "malformed DER"
        }
    }

    static func phrase(_ code: ASN1Error.ErrorCode) -> String {
        switch code {
        case .truncatedASN1Field: return "the DER is truncated"
        case .unexpectedFieldType: return "a field has an unexpected ASN.1 tag"
        case .invalidASN1Object: return "the ASN.1 structure is malformed"
        case .invalidASN1IntegerEncoding: return "an INTEGER is not minimally encoded"
        case .unsupportedFieldLength: return "a DER length is not minimal or too long"
        case .invalidPEMDocument: return "not PEM"
        case .invalidStringRepresentation: return "a string field holds characters its type does not allow"
        case .tooFewOIDComponents: return "an OBJECT IDENTIFIER has too few components"
        default: return "malformed DER"
        }
    }

    static func phrase(_ code: CertificateError.ErrorCode) -> String {
        switch code {
        case .unsupportedSignatureAlgorithm: return "an unsupported signature algorithm"
        case .unsupportedPublicKeyAlgorithm: return "an unsupported public key algorithm or curve"
        case .unsupportedDigestAlgorithm: return "an unsupported digest algorithm"
        case .invalidSignatureForCertificate: return "a signature that does not verify"
        case .incorrectOIDForExtension: return "an extension with an unexpected OID"
        case .duplicateOID: return "the same extension twice"
        default: return "not a usable certificate"
        }
    }

    static func phrase(_ error: CryptoKitASN1Error) -> String {
        switch error {
        case .truncatedASN1Field: return "the DER is truncated"
        case .unexpectedFieldType, .invalidFieldIdentifier: return "a field has an unexpected ASN.1 tag"
        case .invalidASN1IntegerEncoding: return "an INTEGER is not minimally encoded"
        case .unsupportedFieldLength: return "a DER length is not minimal or too long"
        case .invalidObjectIdentifier: return "an OBJECT IDENTIFIER is malformed"
        case .invalidPEMDocument: return "not PEM"
        default: return "the ASN.1 structure is malformed"
        }
    }

    static func phrase(_ error: CryptoKitError) -> String {
        switch error {
        case .incorrectKeySize: return "a key of the wrong size"
        case .incorrectParameterSize: return "a parameter of the wrong size"
        default: return "not a valid key"
        }
    }
}

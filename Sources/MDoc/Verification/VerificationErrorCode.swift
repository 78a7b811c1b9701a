/// Stable error codes of this module: every check's, and those of DeviceResponses, transcripts and encrypted answers
/// (the flows' own codes are ``FailureCode``s of their modules). Part of the public API and of HTTP responses.
public enum VerificationErrorCode: String, Sendable, CaseIterable, Codable, Error {
    // issuer.certificateChain
    case issuerCertificateUntrusted = "ISSUER_CERTIFICATE_UNTRUSTED"
    case issuerCertificateExpired = "ISSUER_CERTIFICATE_EXPIRED"
    case trustedIssuerCertificateExpired = "TRUSTED_ISSUER_CERTIFICATE_EXPIRED"
    case issuerCertificateInvalid = "ISSUER_CERTIFICATE_INVALID"
    /// The trusted IACA is scoped to other docTypes (by its VICAL or by the operator).
    case issuerNotAuthorizedForDocType = "ISSUER_NOT_AUTHORIZED_FOR_DOCTYPE"
    // issuer.certificateProfile
    case certificateProfileViolation = "CERTIFICATE_PROFILE_VIOLATION"
    // issuer.certificateRevocation (shared with SD-JWT VC's sdjwt.issuerCertificateRevocation and status-list signers)
    /// A certificate of the path is on its issuer's current CRL.
    case certificateRevoked = "CERTIFICATE_REVOKED"
    case crlUnavailable = "CRL_UNAVAILABLE"
    case crlTooLarge = "CRL_TOO_LARGE"
    case crlMalformed = "CRL_MALFORMED"
    case crlIssuerMismatch = "CRL_ISSUER_MISMATCH"
    case crlIssuerNotAuthorized = "CRL_ISSUER_NOT_AUTHORIZED"
    case crlSignatureInvalid = "CRL_SIGNATURE_INVALID"
    case crlUnsupported = "CRL_UNSUPPORTED"
    case crlScopeMismatch = "CRL_SCOPE_MISMATCH"
    case crlNotYetValid = "CRL_NOT_YET_VALID"
    case crlExpired = "CRL_EXPIRED"
    // issuer.signature
    case issuerSignatureInvalid = "ISSUER_SIGNATURE_INVALID"
    /// The issuer's signature algorithm, or (mso.deviceKey) the device key's type or curve, is not implemented.
    case algorithmUnsupported = "ALGORITHM_UNSUPPORTED"
    // mso.docType
    case docTypeMismatch = "DOC_TYPE_MISMATCH"
    // issuer.valueDigests
    case digestMismatch = "DIGEST_MISMATCH"
    case digestMissing = "DIGEST_MISSING"
    case digestAlgorithmUnsupported = "DIGEST_ALGORITHM_UNSUPPORTED"
    // mso.validity
    case msoExpired = "MSO_EXPIRED"
    case msoNotYetValid = "MSO_NOT_YET_VALID"
    case msoSignedOutsideCertificateValidity = "MSO_SIGNED_OUTSIDE_CERTIFICATE_VALIDITY"
    /// validityInfo breaks ISO 18013-5 9.1.2.4: a timestamp not tag 0 / UTC / whole seconds, or validFrom < signed
    /// (mso.validity); or deviceKeyInfo.deviceKey is not a well-formed COSE_Key (mso.deviceKey).
    case msoMalformed = "MSO_MALFORMED"
    // device.authentication
    case deviceSignatureInvalid = "DEVICE_SIGNATURE_INVALID"
    case deviceMacInvalid = "DEVICE_MAC_INVALID"
    case deviceAuthMissing = "DEVICE_AUTH_MISSING"
    case readerKeyRequired = "READER_KEY_REQUIRED"
    // device.keyAuthorizations
    case deviceKeyUnauthorized = "DEVICE_KEY_UNAUTHORIZED"
    // mso.status
    /// The list says INVALID, or the identifier is listed.
    case statusRevoked = "STATUS_REVOKED"
    case statusSuspended = "STATUS_SUSPENDED"
    /// No statement can be made: the list could not be fetched or trusted, or the value is not a known status.
    case statusUnknown = "STATUS_UNKNOWN"
    // request.elements
    /// The answer discloses an element (or a docType) the request did not ask for.
    case elementNotRequested = "ELEMENT_NOT_REQUESTED"
    /// No certificate of the credential's issuer chain names an authority the request asked for (`trusted_authorities`).
    case issuerNotTrustedAuthority = "ISSUER_NOT_TRUSTED_AUTHORITY"
    // Zero-knowledge documents
    /// zk.system: the document names a proof system this verifier does not accept (or ZK is not configured), or
    /// discloses another number of elements than the system proves.
    case zkSystemNotAccepted = "ZK_SYSTEM_NOT_ACCEPTED"
    /// zk.nameSpace: verifierd reads no ZK document of this docType (the namespace cannot be fixed).
    case zkDocTypeUnsupported = "ZK_DOCTYPE_UNSUPPORTED"
    /// zk.nameSpace: the document names another namespace than its docType's (a proof does not bind the namespace).
    case zkNameSpaceMismatch = "ZK_NAMESPACE_MISMATCH"
    /// zk.timestamp: the time the proof states is outside the freshness window.
    case zkTimestampNotFresh = "ZK_TIMESTAMP_NOT_FRESH"
    /// zk.proof: the proof does not prove the statement (or the DS key is not P-256, the only curve the circuits verify).
    case zkProofInvalid = "ZK_PROOF_INVALID"
    // Whole-response failures
    case deviceResponseMalformed = "DEVICE_RESPONSE_MALFORMED"
    /// The response is well formed but holds more documents than one request may verify.
    case deviceResponseLimitExceeded = "DEVICE_RESPONSE_LIMIT_EXCEEDED"
    /// Zero-knowledge proofs are being checked at the configured limit: the response was not judged (HTTP 503 with
    /// Retry-After).
    case zkCapacityExhausted = "ZK_CAPACITY_EXHAUSTED"
    case sessionTranscriptMalformed = "SESSION_TRANSCRIPT_MALFORMED"
    /// The DeviceResponse is well formed but returns no document (the holder declined, or the wallet reported an
    /// error in `status` / `documentErrors`).
    case documentsNotReturned = "DOCUMENTS_NOT_RETURNED"
    // Apple envelope (APPLE-HPKE-v1)
    case envelopeMalformed = "ENVELOPE_MALFORMED"
    case envelopeUnsupported = "ENVELOPE_UNSUPPORTED"
    case recipientKeyUnknown = "RECIPIENT_KEY_UNKNOWN"
    case decryptionFailed = "DECRYPTION_FAILED"
    // Known issuer deviations, granted as warnings only under an anchor named lenient (trust.profileChecksByAnchor)
    /// The DS carries the pre-publication mdlDS OID 1.3.130.2.0.0.1.2 instead of 1.0.18013.5.1.2.
    case documentSignerEKUPrePublication = "DS_EKU_PRE_PUBLICATION"
    /// validityInfo timestamps have fractional seconds (ISO 18013-5 9.1.2.4 forbids them).
    case msoDateFractionalSeconds = "MSO_DATE_FRACTIONAL_SECONDS"
    /// issuing_country differs from the DS countryName.
    case issuingCountryMismatch = "ISSUING_COUNTRY_MISMATCH"
}

import COSE

/// `mso.deviceKey`: the MSO's `deviceKeyInfo.deviceKey` is a COSE_Key the device can be authenticated with: EC2
/// (RFC 9053 §7.1.1) on P-256, P-384 or P-521, both coordinates exactly as long as the curve's field, a point on
/// the curve. The MSO is issuer-signed, so a malformed key is the issuer's defect (`MSO_MALFORMED`), not a device
/// signature or MAC that fails; a well-formed key of a type or curve this verifier does not implement is
/// `ALGORITHM_UNSUPPORTED`. Either way `device.authentication` is then not checked.
struct MSODeviceKeyCheck: DocumentCheck {
    let id = VerificationCheckID.msoDeviceKey

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        switch context.deviceKey {
        case .success(let key):
            return .passed("EC2 \(key.curve) device key")
        case .failure(.keyUnsupported(let why)):
            return .failed(.algorithmUnsupported, "deviceKeyInfo.deviceKey is a COSE_Key this verifier does not support: \(why)")
        case .failure(.keyInvalid(let why)):
            return .failed(.msoMalformed, "deviceKeyInfo.deviceKey is not a valid COSE_Key (RFC 9053 §7.1.1): \(why)")
        case .failure(let error):
            return .failed(.msoMalformed, "deviceKeyInfo.deviceKey: \(error)")
        }
    }
}

/// `device.keyAuthorizations`: every device-signed element is authorized by the MSO keyAuthorizations.
struct KeyAuthorizationsCheck: DocumentCheck {
    let id = VerificationCheckID.deviceKeyAuthorizations

    func evaluate(_ context: DocumentContext) -> CheckOutcome {
        let elements = (context.document.deviceSigned?.nameSpaces ?? []).flatMap { entry in
            entry.elements.map { (entry.nameSpace, $0.identifier) }
        }
        guard !elements.isEmpty else { return .notApplicable("no device-signed elements") }
        let authorizations = context.mso.keyAuthorizations
        let unauthorized = elements.filter { authorizations?.authorizes(nameSpace: $0.0, element: $0.1) != true }
        guard unauthorized.isEmpty else {
            return .failed(.deviceKeyUnauthorized, "the device key may not sign "
                + unauthorized.map { "\($0.0)/\($0.1)" }.joined(separator: ", "))
        }
        return .passed("\(elements.count) device-signed elements authorized")
    }
}

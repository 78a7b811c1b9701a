import HTTPTypes

extension HTTPField.Name {
    /// `X-Request-Id`.
    public static var xRequestID: HTTPField.Name { requestIDFieldName }
}

private let requestIDFieldName: HTTPField.Name = {
    guard let name = HTTPField.Name("X-Request-Id") else { preconditionFailure("valid literal field name") }
    return name
}()

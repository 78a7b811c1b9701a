/// A configuration section a route needs; without it the route answers 503 `<SECTION>_NOT_CONFIGURED`.
func configured<Section>(_ section: Section?, _ name: String) throws(ServiceProblem) -> Section {
    guard let section else {
        throw ServiceProblem(.serviceUnavailable, name.uppercased() + "_NOT_CONFIGURED", "the \(name) section is not configured")
    }
    return section
}

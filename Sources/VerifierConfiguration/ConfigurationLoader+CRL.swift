import CertificateRevocation

extension ConfigurationLoader.Values {
    /// `crl`: how the CRLs of issuer, status-list signer, list signer and registration chains apply.
    func crl() throws(ConfigurationError) -> ServiceConfiguration.CRL {
        var section = ServiceConfiguration.CRL()
        if let text = try string("crl", "mode") {
            guard let mode = CertificateRevocationPolicy.Mode(rawValue: text) else {
                throw ConfigurationError(key: "crl.mode", "must be \"enforce\", \"warn\" or \"off\", got \"\(text.prefix(32))\"")
            }
            section.mode = mode
        }
        section.fetchTimeoutSeconds = try int("crl", "fetchTimeoutSeconds", default: 5, range: 1...60)
        section.maxBytes = try int("crl", "maxBytes", default: 1 << 20, range: 1024...(64 << 20))
        section.cacheSeconds = try int("crl", "cacheSeconds", default: 3600, range: 0...604_800)
        section.staleGraceSeconds = try int("crl", "staleGraceSeconds", default: 0, range: 0...604_800)
        section.cacheMaxBytes = try int("crl", "cacheMaxBytes", default: 32 << 20, range: (1 << 20)...(4 << 30))
        if let schemes = try stringList("crl", "allowedSchemes") {
            let lowered = schemes.map { $0.lowercased() }
            guard !lowered.isEmpty, lowered.allSatisfy({ $0 == "https" || $0 == "http" }) else {
                throw ConfigurationError(key: "crl.allowedSchemes", "lists only \"http\" and \"https\"")
            }
            section.allowedSchemes = lowered
        }
        return section
    }
}

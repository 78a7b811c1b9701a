import Foundation
import TrustLists
import StrictJSON
import TrustManagement
import X509

extension ConfigurationLoader {
    static let loteSourceKeys: Set<String> = ["name", "url", "kind", "signerAnchors", "refreshHours", "staleGraceHours",
                                              "onStale", "docTypes", "vcts"]

    /// `trust.loteSources`: `[{"name", "url", "kind", "signerAnchors", "refreshHours", "staleGraceHours", "onStale",
    /// "docTypes", "vcts"}]`. Only the kinds that name credential issuers (`mdl`, `pid`) or providers of registration
    /// or access certificates (`wrprc`, `wrpac`) are trust sources; a name is unique among list and VICAL sources.
    static func loteSourceList(_ raw: Raw?, vicalNames: Set<String>, path: (String) -> URL)
        throws(ConfigurationError) -> [ServiceConfiguration.LoTESourceSettings]
    {
        let key = "trust.loteSources"
        let items = try array(raw, key: key, of: #"{"name", "url", "kind", "signerAnchors"}"#)
        var sources: [ServiceConfiguration.LoTESourceSettings] = []
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let members) = item else { throw ConfigurationError(key: itemKey, "must be an object") }
            if let unknown = Set(members.keys).subtracting(loteSourceKeys).sorted().first {
                throw ConfigurationError(key: "\(itemKey).\(unknown)", "unknown key (expected \(loteSourceKeys.sorted().joined(separator: ", ")))")
            }
            guard case .string(let name)? = members["name"], VICALSource.isValidName(name) else {
                throw ConfigurationError(key: "\(itemKey).name", "a source name is 1 to 32 lowercase letters, digits or dashes")
            }
            guard !sources.contains(where: { $0.name == name }), !vicalNames.contains(name) else {
                throw ConfigurationError(key: "\(itemKey).name", "source \"\(name)\" is listed twice (names are shared with trust.vicalSources)")
            }
            guard case .string(let text)? = members["url"], let url = URL(string: text),
                  let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                throw ConfigurationError(key: "\(itemKey).url", "must be an http or https URL")
            }
            guard case .string(let kindText)? = members["kind"], let kind = LoTEKind(rawValue: kindText) else {
                throw ConfigurationError(key: "\(itemKey).kind", "must be one of \(LoTEKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard var scope = LoTESource.Scope.default(for: kind) else {
                throw ConfigurationError(key: "\(itemKey).kind", "\"\(kind.rawValue)\" lists nothing verifierd checks; mdl, pid (credential issuers), wrprc and wrpac (registration and access certificate providers) lists are trust sources")
            }
            guard case .array(let anchorItems)? = members["signerAnchors"], !anchorItems.isEmpty, anchorItems.count <= 16 else {
                throw ConfigurationError(key: "\(itemKey).signerAnchors", "must be an array of 1 to 16 certificate files")
            }
            var anchors: [URL] = []
            for anchor in anchorItems {
                guard case .string(let file) = anchor, !file.isEmpty else {
                    throw ConfigurationError(key: "\(itemKey).signerAnchors", "must be an array of 1 to 16 certificate files")
                }
                anchors.append(path(file))
            }
            let hours = try number(members["refreshHours"], key: "\(itemKey).refreshHours", default: 24, range: 0.001...744)
            let grace = try number(members["staleGraceHours"], key: "\(itemKey).staleGraceHours", default: 24, range: 0...744)
            var onStale = LoTESource.StalePolicy.withdraw
            if let value = members["onStale"] {
                guard case .string(let text) = value, let policy = LoTESource.StalePolicy(rawValue: text) else {
                    throw ConfigurationError(key: "\(itemKey).onStale", "must be \"withdraw\" or \"warn\"")
                }
                onStale = policy
            }
            if let value = members["docTypes"] {
                guard scope.iacaDocTypes != nil else {
                    throw ConfigurationError(key: "\(itemKey).docTypes", "a \(kind.rawValue) list gives no IACAs")
                }
                scope.iacaDocTypes = try strings(value, key: "\(itemKey).docTypes")
            }
            if let value = members["vcts"] {
                guard scope.sdJwtVcTypes != nil else {
                    throw ConfigurationError(key: "\(itemKey).vcts", "a \(kind.rawValue) list gives no SD-JWT VC issuers")
                }
                scope.sdJwtVcTypes = try strings(value, key: "\(itemKey).vcts")
            }
            sources.append(.init(name: name, url: url, kind: kind, signerAnchors: anchors, refreshHours: hours, scope: scope,
                                 staleGraceSeconds: grace * 3600, onStale: onStale))
        }
        return sources
    }

    private static func number(_ value: RawJSON?, key: String, default fallback: Double, range: ClosedRange<Double>)
        throws(ConfigurationError) -> Double
    {
        let number: Double
        switch value {
        case nil: number = fallback
        case .integer(let integer)?: number = Double(integer)
        case .double(let double)?: number = double
        default: throw ConfigurationError(key: key, "must be a number of hours")
        }
        guard range.contains(number) else {
            throw ConfigurationError(key: key, "must be between \(range.lowerBound) and \(range.upperBound) hours")
        }
        return number
    }

    /// A non-empty array of up to 64 distinct non-empty strings.
    private static func strings(_ value: RawJSON, key: String) throws(ConfigurationError) -> [String] {
        guard case .array(let items) = value, (1...64).contains(items.count) else {
            throw ConfigurationError(key: key, "must be an array of 1 to 64 strings")
        }
        var list: [String] = []
        for item in items {
            guard case .string(let text) = item, !text.isEmpty, text.utf8.count <= 256, !list.contains(text) else {
                throw ConfigurationError(key: key, "must be an array of 1 to 64 distinct non-empty strings")
            }
            list.append(text)
        }
        return list
    }
}

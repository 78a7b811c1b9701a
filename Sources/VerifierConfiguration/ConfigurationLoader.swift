#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MDoc
import OutboundFetch
import ReaderAuthentication
import ServerTLS
import StrictJSON
import TrustManagement
import TrustStore
import WebPresentment

/// Reads the JSON configuration file, applies `VERIFIERD_*` environment overrides and secret files, and checks
/// every value's type and range. Every error names the key.
///
/// Each key `section.name` can be overridden by `VERIFIERD_SECTION_NAME` (camelCase becomes SNAKE_CASE, lists are
/// comma-separated). Secrets can come from files: `admin.tokenFile`, `readerTokens.clientTokensFile` (one token per
/// line), `integrators.tokensFile` (one `name=token` per line) or the environment variables
/// `VERIFIERD_ADMIN_TOKEN_FILE`, `VERIFIERD_READER_TOKENS_CLIENT_TOKENS_FILE` and `VERIFIERD_INTEGRATORS_TOKENS_FILE`.
public enum ConfigurationLoader {
    /// Every key the file may contain, by section.
    static let schema: [String: Set<String>] = [
        "server": ["host", "port", "maxBodyBytes", "maxConnections", "shutdownGraceSeconds", "tls", "plainHealthPort"],
        // A dotted name is an object inside its parent section (`server.tls` is `"server": {"tls": {…}}`); its
        // environment variables follow the same rule (VERIFIERD_SERVER_TLS_*).
        "server.tls": ["certificateChain", "privateKey", "minimumVersion", "clientCA", "requireClientCertificateFor",
                       "ticketKeyLifetimeHours"],
        "apple": ["merchantId", "teamId", "encryptionKeys", "allowedMerchantIds", "allowedTeamIds", "requireIssuedNonce",
                  "nonceTTLSeconds"],
        "store": ["kind", "url", "passwordFile", "poolSize", "tls", "sessionKeyFile", "operationTimeoutMs"],
        "store.tls": ["mode", "caFile"],
        "trust": ["iacaDirectory", "seedDirectory", "profileChecks", "profileChecksByAnchor", "pollSeconds",
                  "expiringWindowDays", "vicalSigners", "vicalSources", "vicalRetrySeconds", "loteSources", "requestTrustedAuthorities"],
        "verification": ["clockSkewSeconds", "allowVerificationTimeOverride"],
        "readerTokens": ["brandId", "keyId", "signingKey", "lifetimeSeconds", "clientTokens", "clientTokensFile"],
        "admin": ["token", "tokenFile"],
        "integrators": ["tokens", "tokensFile", "requireToken", "maxSessionsPerIntegrator"],
        "status": ["mode", "unknown", "fetchTimeoutSeconds", "maxListBytes", "allowedSchemes", "cacheSeconds",
                   "staleGraceSeconds", "cacheMaxBytes"],
        "crl": ["mode", "fetchTimeoutSeconds", "maxBytes", "allowedSchemes", "cacheSeconds", "staleGraceSeconds", "cacheMaxBytes"],
        "outbound": ["allowedDestinations", "publicDestinations", "maxRedirects", "connectTimeoutSeconds", "idleTimeoutSeconds", "maxConcurrentFetches",
                     "maxConcurrentFetchesPerHost"],
        "readerAuth": ["signingKey", "certificateChain", "mode"],
        "web": ["allowedOrigins", "sessionTTLSeconds", "allowStatelessVerify", "maxSessions", "maxSessionBytes"],
        "proximity": ["sessionTTLSeconds", "allowInjectedReaderKey"],
        "oid4vp": ["allowedOrigins", "sessionTTLSeconds", "allowUnencryptedResponses", "publicBaseUrl", "clientIdPrefix",
                   "clientIdDnsName", "walletAuthorizationEndpoint", "requestUriMethod", "transactionDataTypes"],
        "sdJwtVc": ["issuerDirectory", "seedDirectory", "keyBindingMaxAgeSeconds", "metadataIssuers", "metadataCacheSeconds"],
        "logging": ["level"],
        "demo": ["enabled", "integrator"],
        "presentations": ["protocols", "sessionTTLSeconds"],
        "zk": ["systems", "missingCircuits", "maxConcurrent", "maxQueued", "maxPerIntegrator", "maxBodyBytes", "maxAgeSeconds"],
        "registration": ["registrarAnchors", "certificates"],
        "webhooks": ["endpoints", "outboxDirectory", "outboxKeyFile", "maxAttempts", "maxAgeSeconds", "retryBaseMilliseconds",
                     "retryMaxSeconds", "leaseSeconds", "pollMilliseconds", "maxPending", "timeoutSeconds"],
    ]

    /// The environment variable for a key.
    public static func environmentName(_ section: String, _ key: String) -> String {
        var name = "VERIFIERD_"
        for part in [section, key] {
            if name.count > 10 { name += "_" }
            let characters = Array(part)
            for (index, character) in characters.enumerated() {
                if character == "." { name += "_"; continue }
                // A word starts at a capital after a lower-case letter, or at the last capital of an acronym
                // (`sessionTTLSeconds` -> SESSION_TTL_SECONDS).
                let previous = index > 0 ? characters[index - 1] : nil
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if character.isUppercase, let previous, previous != ".",
                   previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    name += "_"
                }
                name += character.uppercased()
            }
        }
        return name
    }

    /// A value: the environment's text, or else the file's.
    enum Raw {
        case environment(String)
        case file(RawJSON)
    }

    /// A list of objects: a JSON array in the file, or the same JSON array in the environment (its names checked for
    /// duplicates like the file's); `shape` names what each element holds, for the message.
    static func array(_ raw: Raw?, key: String, of shape: String) throws(ConfigurationError) -> [RawJSON] {
        switch raw {
        case nil: return []
        case .file(.array(let list)): return list
        case .environment(let text):
            if let path = JSONSyntaxScan.duplicateName(in: Array(text.utf8)) {
                throw ConfigurationError(key: key + (path.hasPrefix("[") ? "" : ".") + path, duplicateReason)
            }
            guard let decoded = try? JSONDecoder().decode(RawJSON.self, from: Data(text.utf8)), case .array(let list) = decoded else {
                throw ConfigurationError(key: key, "must be a JSON array of \(shape)")
            }
            return list
        default: throw ConfigurationError(key: key, "must be an array of \(shape)")
        }
    }

    /// `trust.vicalSources`: `[{"name", "url", "refreshHours"}]`, each with a signer in `trust.vicalSigners`.
    static func vicalSourceList(_ raw: Raw?, signers: [String: URL]) throws(ConfigurationError) -> [ServiceConfiguration.VICALSource] {
        let key = "trust.vicalSources"
        let items = try array(raw, key: key, of: #"{"name", "url", "refreshHours"}"#)
        var sources: [ServiceConfiguration.VICALSource] = []
        for (index, item) in items.enumerated() {
            let itemKey = "\(key)[\(index)]"
            guard case .object(let members) = item else { throw ConfigurationError(key: itemKey, "must be an object") }
            if let unknown = Set(members.keys).subtracting(["name", "url", "refreshHours"]).sorted().first {
                throw ConfigurationError(key: "\(itemKey).\(unknown)", "unknown key (expected name, url, refreshHours)")
            }
            guard case .string(let name)? = members["name"], ServiceConfiguration.VICALSource.isValidName(name) else {
                throw ConfigurationError(key: "\(itemKey).name", "a source name is 1 to 32 lowercase letters, digits or dashes")
            }
            guard signers[name] != nil else {
                throw ConfigurationError(key: "\(itemKey).name", "source \"\(name)\" has no signer in trust.vicalSigners")
            }
            guard !sources.contains(where: { $0.name == name }) else {
                throw ConfigurationError(key: "\(itemKey).name", "source \"\(name)\" is listed twice")
            }
            guard case .string(let text)? = members["url"], let url = URL(string: text),
                  let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                throw ConfigurationError(key: "\(itemKey).url", "must be an http or https URL")
            }
            var hours = 24.0
            switch members["refreshHours"] {
            case nil: break
            case .integer(let value)?: hours = Double(value)
            case .double(let value)?: hours = value
            default: throw ConfigurationError(key: "\(itemKey).refreshHours", "must be a number of hours")
            }
            guard hours >= 0.001, hours <= 24 * 31 else {
                throw ConfigurationError(key: "\(itemKey).refreshHours", "must be between 0.001 and 744 hours")
            }
            sources.append(.init(name: name, url: url, refreshHours: hours))
        }
        return sources
    }

    public static func load(file: URL, environment: [String: String]) throws(ConfigurationError) -> ServiceConfiguration {
        let data: Data
        do throws(ConfigurationError) {
            data = try ConfiguredFile.bytes(file, key: "(file)")
        } catch where error.reason.hasSuffix(": no such file") {
            // The default path is relative to the working directory: name the fix.
            throw ConfigurationError(key: error.key, error.reason + " (the default config/verifierd.json is relative to the "
                                     + "working directory: run from the repository root or pass --config PATH)")
        }
        // A name twice in one object (Foundation would keep one of the two; other tools may read the other).
        let bytes = Array(data)
        if let failure = JSONSyntaxScan.check(bytes), let path = failure.duplicate {
            throw ConfigurationError(key: path, "\(duplicateReason) (\(file.path), \(position(in: bytes, failure.offset)))")
        }
        let decoded: RawJSON
        do {
            decoded = try JSONDecoder().decode(RawJSON.self, from: data)
        } catch {
            throw ConfigurationError(key: "(file)", "\(file.path) is not valid JSON: \(syntaxError(in: Array(data)))")
        }
        guard case .object(var root) = decoded else {
            throw ConfigurationError(key: "(file)", "\(file.path) is not a JSON object")
        }
        // Nested sections are read like top-level ones under their dotted name.
        for name in schema.keys where name.contains(".") {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            if root[name] != nil { throw ConfigurationError(key: name, "belongs inside \"\(parts[0])\" as \"\(parts[1])\"") }
            guard case .object(let parent)? = root[parts[0]], let nested = parent[parts[1]], nested != .null else { continue }
            guard case .object = nested else { throw ConfigurationError(key: name, "must be an object") }
            root[name] = nested
        }
        let base = file.deletingLastPathComponent()
        try checkEnvironmentNames(environment)
        let values = Values(root: root, environment: environment, base: base)
        try values.checkKnownKeys()
        do {
            return try values.build(file: file)
        } catch {
            // An error caused by an environment variable names the variable.
            let key = error.key.split(separator: "[").first.map(String.init) ?? error.key
            if let dot = key.lastIndex(of: ".") {
                let name = environmentName(String(key[..<dot]), String(key[key.index(after: dot)...]))
                if environment[name] != nil || environment[name + "_FILE"] != nil {
                    throw ConfigurationError(key: error.key, "\(error.reason) (set by \(environment[name] != nil ? name : name + "_FILE"))")
                }
            }
            throw error
        }
    }

    /// Every `VERIFIERD_*` variable must name a setting (or a secret file), like every key of the file.
    static func checkEnvironmentNames(_ environment: [String: String]) throws(ConfigurationError) {
        var known = Set<String>()
        for (section, keys) in schema {
            for key in keys { known.insert(environmentName(section, key)) }
        }
        known.insert(environmentName("admin", "token") + "_FILE")
        known.insert(environmentName("readerTokens", "clientTokens") + "_FILE")
        known.insert(environmentName("integrators", "tokens") + "_FILE")
        known.insert(TrustWriteStep.crashHookEnvironmentName)
        for name in environment.keys.sorted() where name.hasPrefix("VERIFIERD_") && !known.contains(name) {
            let close = known.filter { $0.hasPrefix(name.split(separator: "_").prefix(2).joined(separator: "_")) }.sorted()
            throw ConfigurationError(key: name, "is not a setting" + (close.isEmpty ? "" : " (known in that section: \(close.joined(separator: ", ")))"))
        }
    }

    /// Where a JSON text stops being JSON: "line L, column C: reason" (1-based), from our own scan, so the message
    /// never depends on the JSON library's wording.
    static func syntaxError(in bytes: [UInt8]) -> String {
        let failure = JSONSyntaxScan.firstError(bytes) ?? (offset: bytes.count, reason: "not a JSON object")
        return "\(position(in: bytes, failure.offset)): \(failure.reason)"
    }

    /// "line L, column C" (1-based) of a byte offset.
    static func position(in bytes: [UInt8], _ offset: Int) -> String {
        var line = 1, column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return "line \(line), column \(column)"
    }

    static let duplicateReason = "appears more than once (a name may appear only once in an object)"

    /// A host the listener accepts: an IPv4 or IPv6 address literal.
    public static func checkedHost(_ text: String, key: String) throws(ConfigurationError) -> String {
        var v4 = in_addr(), v6 = in6_addr()
        guard inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1 else {
            throw ConfigurationError(key: key, "must be an IPv4 or IPv6 address literal (127.0.0.1, 0.0.0.0, ::1, ::), got \"\(text)\"")
        }
        return text
    }

    /// Merged raw values with typed accessors.
    struct Values {
        let root: [String: RawJSON]
        let environment: [String: String]
        let base: URL

        init(root: [String: RawJSON], environment: [String: String], base: URL) {
            self.root = root
            self.environment = environment
            self.base = base
        }

        func checkKnownKeys() throws(ConfigurationError) {
            for (section, value) in root {
                guard let keys = schema[section] else {
                    throw ConfigurationError(key: section, "unknown section (known: \(schema.keys.filter { !$0.contains(".") }.sorted().joined(separator: ", ")))")
                }
                guard case .object(let members) = value else { throw ConfigurationError(key: section, "must be an object") }
                if let key = members.keys.sorted().first(where: { !keys.contains($0) }) {
                    throw ConfigurationError(key: "\(section).\(key)", "unknown key (known: \(keys.sorted().joined(separator: ", ")))")
                }
                for (key, member) in members where member == .null {
                    throw ConfigurationError(key: "\(section).\(key)", "is null; remove the key to use its default")
                }
            }
        }

        /// Whether a section is present in the file or through any environment variable.
        func sectionPresent(_ section: String) -> Bool {
            root[section] != nil || (schema[section] ?? []).contains {
                environment[environmentName(section, $0)] != nil
            }
        }

        func raw(_ section: String, _ key: String) -> Raw? {
            if let value = environment[environmentName(section, key)] { return .environment(value) }
            guard case .object(let members)? = root[section], let value = members[key], value != .null else { return nil }
            return .file(value)
        }

        func string(_ section: String, _ key: String) throws(ConfigurationError) -> String? {
            switch raw(section, key) {
            case nil: return nil
            case .environment(let text), .file(.string(let text)): return text
            default: throw ConfigurationError(key: "\(section).\(key)", "must be a string")
            }
        }

        func requiredString(_ section: String, _ key: String) throws(ConfigurationError) -> String {
            guard let value = try string(section, key), !value.isEmpty else {
                throw ConfigurationError(key: "\(section).\(key)", "is required")
            }
            return value
        }

        func int(_ section: String, _ key: String, default value: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            let name = "\(section).\(key)"
            let number: Int
            switch raw(section, key) {
            case nil: return value
            case .environment(let text):
                guard let parsed = Int(text) else { throw ConfigurationError(key: name, "must be an integer, got \"\(text)\"") }
                number = parsed
            case .file(.integer(let n)) where n >= Int64(Int.min) && n <= Int64(Int.max):
                number = Int(n)
            default: throw ConfigurationError(key: name, "must be an integer")
            }
            guard range.contains(number) else {
                throw ConfigurationError(key: name, "must be \(range.lowerBound)...\(range.upperBound), got \(number)")
            }
            return number
        }

        func bool(_ section: String, _ key: String, default value: Bool) throws(ConfigurationError) -> Bool {
            switch raw(section, key) {
            case nil: return value
            case .environment(let text):
                switch text {
                case "true": return true
                case "false": return false
                default: throw ConfigurationError(key: "\(section).\(key)", "must be true or false, got \"\(text)\"")
                }
            case .file(.bool(let b)): return b
            default: throw ConfigurationError(key: "\(section).\(key)", "must be true or false")
            }
        }

        func stringList(_ section: String, _ key: String) throws(ConfigurationError) -> [String]? {
            switch raw(section, key) {
            case nil: return nil
            case .environment(let text):
                return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case .file(.array(let list)):
                var strings: [String] = []
                for (index, element) in list.enumerated() {
                    guard case .string(let text) = element else {
                        throw ConfigurationError(key: "\(section).\(key)[\(index)]", "must be a string")
                    }
                    strings.append(text)
                }
                return strings
            default: throw ConfigurationError(key: "\(section).\(key)", "must be a list of strings")
            }
        }

        /// A map of strings: a JSON object in the file, `k1=v1,k2=v2` in the environment.
        func stringMap(_ section: String, _ key: String) throws(ConfigurationError) -> [String: String] {
            switch raw(section, key) {
            case nil: return [:]
            case .environment(let text):
                var map: [String: String] = [:]
                for entry in text.split(separator: ",") {
                    let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { throw ConfigurationError(key: "\(section).\(key)", "expected key=value pairs") }
                    map[parts[0]] = parts[1]
                }
                return map
            case .file(.object(let members)):
                var map: [String: String] = [:]
                for (name, value) in members {
                    guard case .string(let text) = value else {
                        throw ConfigurationError(key: "\(section).\(key).\(name)", "must be a string")
                    }
                    map[name] = text
                }
                return map
            default: throw ConfigurationError(key: "\(section).\(key)", "must be an object of strings")
            }
        }

        func path(_ text: String) -> URL {
            text.hasPrefix("/") ? URL(fileURLWithPath: text) : base.appendingPathComponent(text).standardizedFileURL
        }

        /// A secret read from a file named by `<key>File` (in the file or the environment), one value per line.
        func secretFile(_ section: String, _ key: String) throws(ConfigurationError) -> [String]? {
            let fileKey = key + "File"
            let name = "\(section).\(fileKey)"
            let location: String?
            if let env = environment[environmentName(section, key) + "_FILE"] {
                location = env
            } else {
                location = try string(section, fileKey)
            }
            guard let location else { return nil }
            let url = path(location)
            let text = try ConfiguredFile.text(url, key: name)
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard !lines.isEmpty else { throw ConfigurationError(key: name, "\(url.path) is empty") }
            return lines
        }

        func build(file: URL) throws(ConfigurationError) -> ServiceConfiguration {
            var server = ServiceConfiguration.Server()
            server.portIsConfigured = raw("server", "port") != nil
            if let host = try string("server", "host") { server.host = try checkedHost(host, key: "server.host") }
            server.port = try int("server", "port", default: server.port, range: 0...65535)
            server.maxBodyBytes = try int("server", "maxBodyBytes", default: server.maxBodyBytes, range: 1024...(64 << 20))
            server.maxConnections = try int("server", "maxConnections", default: server.maxConnections, range: 1...100_000)
            server.shutdownGraceSeconds = try int("server", "shutdownGraceSeconds", default: 10, range: 0...600)
            server.tls = try tls()
            if raw("server", "plainHealthPort") != nil {
                guard server.tls != nil else {
                    throw ConfigurationError(key: "server.plainHealthPort", "only applies with server.tls (without TLS "
                                             + "the main port already answers /healthz and /metrics)")
                }
                let port = try int("server", "plainHealthPort", default: 0, range: 0...65535)
                guard port == 0 || port != server.port else {
                    throw ConfigurationError(key: "server.plainHealthPort", "must differ from server.port")
                }
                server.plainHealthPort = port
            }

            var apple: ServiceConfiguration.Apple?
            if sectionPresent("apple") {
                let keys = try stringList("apple", "encryptionKeys") ?? []
                guard !keys.isEmpty else { throw ConfigurationError(key: "apple.encryptionKeys", "needs at least one key file") }
                apple = .init(merchantId: try requiredString("apple", "merchantId"),
                              teamId: try requiredString("apple", "teamId"), encryptionKeys: keys.map(path),
                              allowedMerchantIds: try stringList("apple", "allowedMerchantIds") ?? [],
                              allowedTeamIds: try stringList("apple", "allowedTeamIds") ?? [],
                              requireIssuedNonce: try bool("apple", "requireIssuedNonce", default: false),
                              nonceTTLSeconds: try int("apple", "nonceTTLSeconds", default: 300, range: 10...3600))
            }

            let directory = try requiredString("trust", "iacaDirectory")
            let modeText = try string("trust", "profileChecks") ?? "warn"
            guard let mode = ProfileCheckMode(rawValue: modeText), mode != .lenient else {
                throw ConfigurationError(key: "trust.profileChecks",
                    "must be \"warn\" or \"enforce\" (\"lenient\" only per anchor), got \"\(modeText)\"")
            }
            var byAnchor: [String: ProfileCheckMode] = [:]
            for (fingerprint, text) in try stringMap("trust", "profileChecksByAnchor") {
                let name = "trust.profileChecksByAnchor.\(fingerprint)"
                guard fingerprint.count == 64, fingerprint.allSatisfy(\.isHexDigit) else {
                    throw ConfigurationError(key: name, "must be keyed by the anchor's SHA-256 (64 hex digits)")
                }
                guard let anchorMode = ProfileCheckMode(rawValue: text) else {
                    throw ConfigurationError(key: name, "must be \"warn\", \"enforce\" or \"lenient\", got \"\(text)\"")
                }
                byAnchor[fingerprint.lowercased()] = anchorMode
            }
            var signers: [String: URL] = [:]
            for (name, file) in try stringMap("trust", "vicalSigners") {
                guard ServiceConfiguration.VICALSource.isValidName(name) else {
                    throw ConfigurationError(key: "trust.vicalSigners.\(name)",
                        "a source name is 1 to 32 lowercase letters, digits or dashes")
                }
                signers[name] = path(file)
            }
            let vicalSources = try vicalSourceList(raw("trust", "vicalSources"), signers: signers)
            var trust = ServiceConfiguration.Trust(
                iacaDirectory: path(directory), seedDirectory: try string("trust", "seedDirectory").map(path),
                profileChecks: mode, profileChecksByAnchor: byAnchor,
                pollSeconds: try int("trust", "pollSeconds", default: 30, range: 0...86_400),
                expiringWindowDays: try int("trust", "expiringWindowDays", default: 30, range: 0...3650),
                vicalSigners: signers, vicalSources: vicalSources)
            trust.loteSources = try loteSourceList(raw("trust", "loteSources"), vicalNames: Set(vicalSources.map(\.name)), path: path)
            trust.vicalRetrySeconds = try int("trust", "vicalRetrySeconds", default: 60, range: 1...86_400)
            if let text = try string("trust", "requestTrustedAuthorities") {
                guard let choice = ServiceConfiguration.Trust.RequestedAuthorities(rawValue: text) else {
                    throw ConfigurationError(key: "trust.requestTrustedAuthorities", "must be \"none\" or \"anchors\"")
                }
                trust.requestTrustedAuthorities = choice
            }

            let verification = ServiceConfiguration.Verification(
                clockSkewSeconds: try int("verification", "clockSkewSeconds", default: 300, range: 0...3600),
                allowVerificationTimeOverride: try bool("verification", "allowVerificationTimeOverride", default: false))

            var readerTokens: ServiceConfiguration.ReaderTokens?
            if sectionPresent("readerTokens") {
                let tokens = (try stringList("readerTokens", "clientTokens") ?? []) + (try secretFile("readerTokens", "clientTokens") ?? [])
                guard !tokens.isEmpty else {
                    throw ConfigurationError(key: "readerTokens.clientTokens", "needs at least one client token")
                }
                readerTokens = .init(
                    brandId: try requiredString("readerTokens", "brandId"),
                    keyId: try requiredString("readerTokens", "keyId"),
                    signingKey: path(try requiredString("readerTokens", "signingKey")),
                    lifetimeSeconds: try int("readerTokens", "lifetimeSeconds", default: 300, range: 1...300),
                    clientTokens: tokens)
            }

            if case .object(let members)? = root["admin"], members["token"] != nil, members["tokenFile"] != nil {
                throw ConfigurationError(key: "admin.tokenFile", "admin.token and admin.tokenFile are both set; keep one")
            }
            var admin = ServiceConfiguration.Admin()
            // Precedence: VERIFIERD_ADMIN_TOKEN_FILE, VERIFIERD_ADMIN_TOKEN, admin.tokenFile, admin.token.
            let tokenVariable = environmentName("admin", "token")
            if environment[tokenVariable + "_FILE"] == nil, let fromEnvironment = environment[tokenVariable] {
                admin.token = fromEnvironment
            } else if let fromFile = try secretFile("admin", "token")?.first {
                admin.token = fromFile
            } else {
                admin.token = try string("admin", "token")
            }
            if let token = admin.token, token.count < 16 {
                throw ConfigurationError(key: "admin.token", "must be at least 16 characters")
            }
            var status = ServiceConfiguration.Status()
            if let text = try string("status", "mode") {
                guard let mode = StatusPolicy.Mode(rawValue: text) else {
                    throw ConfigurationError(key: "status.mode", "must be \"enforce\", \"warn\" or \"off\", got \"\(text)\"")
                }
                status.mode = mode
            }
            if let text = try string("status", "unknown") {
                guard let unknown = StatusPolicy.Unknown(rawValue: text) else {
                    throw ConfigurationError(key: "status.unknown", "must be \"fail\" or \"warn\", got \"\(text)\"")
                }
                status.unknown = unknown
            }
            status.fetchTimeoutSeconds = try int("status", "fetchTimeoutSeconds", default: 5, range: 1...60)
            status.maxListBytes = try int("status", "maxListBytes", default: 10_485_760, range: 1024...(256 << 20))
            status.cacheSeconds = try int("status", "cacheSeconds", default: 300, range: 0...86_400)
            status.staleGraceSeconds = try int("status", "staleGraceSeconds", default: 3600, range: 0...604_800)
            status.cacheMaxBytes = try int("status", "cacheMaxBytes", default: 64 << 20, range: (1 << 20)...(4 << 30))
            if let schemes = try stringList("status", "allowedSchemes") {
                let lowered = schemes.map { $0.lowercased() }
                guard !lowered.isEmpty, lowered.allSatisfy({ $0 == "https" || $0 == "http" }) else {
                    throw ConfigurationError(key: "status.allowedSchemes", "lists only \"https\" and \"http\"")
                }
                status.allowedSchemes = lowered
            }
            var configuration = ServiceConfiguration(server: server, apple: apple, trust: trust, verification: verification,
                                                     readerTokens: readerTokens, admin: admin, file: file)
            configuration.status = status
            configuration.crl = try crl()
            configuration.integrators = try integrators()
            configuration.outbound = try outbound()
            configuration.store = try store()
            configuration.readerAuth = try readerAuth()
            configuration.web = try web()
            configuration.oid4vp = try oid4vp()
            if sectionPresent("sdJwtVc") {
                configuration.sdJwtVc = ServiceConfiguration.SDJWTVC(
                    issuerDirectory: path(try requiredString("sdJwtVc", "issuerDirectory")),
                    seedDirectory: try string("sdJwtVc", "seedDirectory").map(path),
                    keyBindingMaxAgeSeconds: try int("sdJwtVc", "keyBindingMaxAgeSeconds", default: 300, range: 10...86_400),
                    metadataIssuers: try Self.metadataIssuerList(raw("sdJwtVc", "metadataIssuers"),
                                                                 allowed: configuration.outbound.allowedDestinations),
                    metadataCacheSeconds: try int("sdJwtVc", "metadataCacheSeconds", default: 300, range: 10...86_400))
            }
            configuration.demo = try demo(integrators: configuration.integrators, web: configuration.web)
            let providerLists = configuration.trust.loteSources.filter { $0.scope.providers == .registrationCertificates }.map(\.name)
            configuration.registration = try registration(integrators: configuration.integrators, providerLists: providerLists)
            if configuration.readerAuth == nil, let list = configuration.trust.loteSources.first(where: { $0.scope.providers == .accessCertificates }) {
                throw ConfigurationError(key: "trust.loteSources", "the wrpac list \(list.name) checks the access certificate of signed "
                                         + "requests, but readerAuth is not configured")
            }
            configuration.presentations = try presentations(web: configuration.web != nil, oid4vp: configuration.oid4vp != nil,
                                                            readerAuth: configuration.readerAuth != nil)
            configuration.zeroKnowledge = try zeroKnowledge(maxBodyBytes: configuration.server.maxBodyBytes)
            configuration.webhooks = try webhooks(integrators: configuration.integrators, store: configuration.store,
                                                  allowed: configuration.outbound.allowedDestinations)
            if let level = try string("logging", "level") {
                configuration.logging.level = try ServiceConfiguration.Logging.level(named: level, key: "logging.level")
            }
            if sectionPresent("proximity") {
                configuration.proximity = ServiceConfiguration.Proximity(
                    sessionTTLSeconds: try int("proximity", "sessionTTLSeconds", default: 300, range: 30...3600),
                    allowInjectedReaderKey: try bool("proximity", "allowInjectedReaderKey", default: false))
            }
            return configuration
        }
    }
}

import ArgumentParser
import Crypto
import Encodings
import Foundation
import MDoc
import OpenID4VP
import StrictJSON
import TrustStore
import VerifierService

/// `verifierd oid4vp`: offline tools for OpenID4VP 1.0 answers.
struct OpenID4VPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oid4vp", abstract: "OpenID4VP 1.0 (mso_mdoc) tools.", subcommands: [OpenID4VPVerify.self])
}

/// `verifierd oid4vp verify`: verify an answer (a JWE, a vp_token or one DeviceResponse) against session parameters
/// given by hand, at a fixed time, under the configured trust set or the anchors given.
struct OpenID4VPVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify an OpenID4VP answer offline; prints the report.",
        discussion: """
            The SessionTranscript is OpenID4VP 1.0 B.2.6: with --origin, ["OpenID4VPDCAPIHandover", SHA-256(CBOR([origin, \
            nonce, jwkThumbprint]))]; with --client-id and --response-uri, ["OpenID4VPHandover", SHA-256(CBOR([client_id, \
            nonce, jwkThumbprint, response_uri]))]. jwkThumbprint is the RFC 7638 thumbprint of --jwk (a JWK file; with \
            its private "d" a JWE can be opened), or --jwk-thumbprint (hex), or null without either (dc_api). \
            Give exactly one answer: --response (a compact JWE, or @FILE), --vp-token FILE (JSON), --device-response \
            FILE (CBOR, raw or hex; verified as credential id "offline"). --dcql FILE compares the answer with the query; \
            without it, every credential id is accepted and nothing is compared. --anchor FILE (repeatable) replaces \
            the configured trust set; --lenient marks those anchors lenient (trust.profileChecksByAnchor). \
            Exit status 0 when verified, 1 otherwise.
            """)

    @OptionGroup var options: ConfigOption
    @Option(help: "DC API: the origin the wallet was called from.") var origin: String?
    @Option(name: .customLong("client-id"), help: "Redirect: the client_id with its prefix.") var clientId: String?
    @Option(name: .customLong("response-uri"), help: "Redirect: the response_uri.") var responseURI: String?
    @Option(help: "The request's nonce.") var nonce: String
    @Option(help: "The verifier's response-encryption JWK (JSON file; with d to open a JWE).") var jwk: String?
    @Option(name: .customLong("jwk-thumbprint"), help: "Its RFC 7638 thumbprint in hex, when the JWK is not at hand.")
    var jwkThumbprint: String?
    @Option(help: "A compact JWE (or @FILE).") var response: String?
    @Option(name: .customLong("vp-token"), help: "A vp_token JSON file.") var vpToken: String?
    @Option(name: .customLong("device-response"), help: "A DeviceResponse file (CBOR, raw or hex).") var deviceResponse: String?
    @Option(help: "The DCQL query (JSON file).") var dcql: String?
    @Option(help: "A trusted IACA (PEM); repeat for several. Replaces the configured trust set.") var anchor: [String] = []
    @Flag(help: "Mark the --anchor certificates lenient (known issuer deviations become warnings).") var lenient = false
    @Option(name: .customLong("sd-jwt-vc-issuer"),
            help: "A trusted SD-JWT VC issuer CA (PEM); repeat for several. Replaces the configured issuer trust set.")
    var sdJwtVcIssuer: [String] = []
    @Option(help: "Verification time (RFC 3339); default now.") var at: String?
    @Flag(name: .customLong("no-status"), help: "Do not fetch status lists (offline); mso.status then says so.") var noStatus = false

    func validate() throws {
        guard (origin == nil) != (clientId == nil) else { throw ValidationError("give --origin (DC API) or --client-id (redirect)") }
        if clientId != nil && responseURI == nil { throw ValidationError("--client-id needs --response-uri") }
        guard [response, vpToken, deviceResponse].compactMap({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --response, --vp-token, --device-response")
        }
        if let at, TDate.parse(at) == nil { throw ValidationError("--at is not an RFC 3339 date-time") }
        if lenient && anchor.isEmpty { throw ValidationError("--lenient applies to --anchor certificates") }
    }

    func run() async throws {
        var configuration = ServiceLoading.configuration(options)
        if noStatus { configuration.status.mode = .off }
        var trust: TrustSnapshot?
        if !anchor.isEmpty {
            let anchors = try Self.anchors(anchor)
            if lenient {
                for parsed in anchors { configuration.trust.profileChecksByAnchor[parsed.sha256] = .lenient }
            }
            trust = TrustSnapshot(set: TrustSet(anchors: anchors).normalized())
        }
        let issuerTrust = sdJwtVcIssuer.isEmpty ? nil
            : TrustSnapshot(set: TrustSet(anchors: try Self.anchors(sdJwtVcIssuer)).normalized())
        let service = await ServiceLoading.service(configuration, logger: ServiceLoading.logger(toStandardError: true))
        let (key, thumbprint) = try Self.key(jwk: jwk, thumbprint: jwkThumbprint)
        var query = DCQLQuery(credentials: [])
        if let dcql {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dcql)))
            guard JSONSyntaxScan.check(bytes) == nil else { throw ValidationError("--dcql \(dcql) is not one JSON value without repeated names") }
            var raw = try JSONDecoder().decode(RawJSON.self, from: Data(bytes))
            // A request object's member, or the query itself.
            if case .object(let members) = raw, let inner = members["dcql_query"] { raw = inner }
            do {
                query = try DCQLQuery(parsing: raw)
            } catch {
                throw ValidationError("--dcql \(dcql): \(error.detail)")
            }
        }
        let answer: WalletAnswer
        if let response {
            answer = .encrypted(try WebDecrypt.value(response))
        } else if let vpToken {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: vpToken)))
            guard JSONSyntaxScan.check(bytes) == nil else { throw ValidationError("--vp-token \(vpToken) is not one JSON value without repeated names") }
            answer = .plain(try JSONDecoder().decode(VPToken.self, from: Data(bytes)))
        } else {
            let data = try Data(contentsOf: URL(fileURLWithPath: deviceResponse ?? ""))
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let bytes = [UInt8](hexString: text) ?? Array(data)
            answer = .plain(VPToken(presentations: ["offline": [Base64URL.encode(bytes)]]))
        }
        let session = OpenID4VPSession(
            flow: origin != nil ? .digitalCredentialsAPI : .crossDevice, origin: origin, nonce: nonce,
            mode: origin != nil ? (key != nil || thumbprint != nil ? .dcAPIJWT : .dcAPI) : .directPostJWT,
            key: response != nil ? key : nil, query: query, clientId: clientId, responseURI: responseURI, jwkThumbprint: thumbprint)
        let result = await service.verifyOpenID4VPAnswer(answer, session: session, at: at.flatMap(TDate.parse) ?? Date(), trust: trust,
                                                         issuerTrust: issuerTrust)
        print(result.text)
        if !result.verified { throw ExitCode(1) }
    }

    /// The certificates of PEM `files` as anchors (CA certificates with keyCertSign).
    static func anchors(_ files: [String]) throws -> [TrustAnchor] {
        var anchors: [TrustAnchor] = []
        for file in files {
            let text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
            for block in try PEM.blocks(in: text) where block.label == "CERTIFICATE" {
                anchors.append(try TrustAnchor(derBytes: block.bytes, file: file))
            }
        }
        return anchors
    }

    /// The response-encryption key from a JWK file (private when it has `d`), or only a thumbprint.
    static func key(jwk: String?, thumbprint: String?) throws -> (ResponseEncryptionKey?, [UInt8]?) {
        if let thumbprint {
            guard let bytes = [UInt8](hexString: thumbprint), bytes.count == 32 else {
                throw ValidationError("--jwk-thumbprint is not 32 bytes of hex")
            }
            return (nil, bytes)
        }
        guard let jwk else { return (nil, nil) }
        struct JWK: Decodable { let kty: String; let crv: String; let x: String; let y: String; let d: String?; let kid: String? }
        let parsed = try JSONDecoder().decode(JWK.self, from: Data(contentsOf: URL(fileURLWithPath: jwk)))
        guard parsed.kty == "EC", parsed.crv == "P-256" else { throw ValidationError("--jwk is not a P-256 EC key") }
        let thumbprintBytes = ResponseEncryptionKey.thumbprint(x: parsed.x, y: parsed.y)
        if let d = parsed.d, let raw = Base64URL.decodeBytes(d), let privateKey = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) {
            return (ResponseEncryptionKey(privateKey: privateKey, kid: parsed.kid ?? ""), thumbprintBytes)
        }
        return (nil, thumbprintBytes)
    }
}

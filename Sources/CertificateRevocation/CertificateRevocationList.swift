import Encodings
import Foundation
import SwiftASN1
import X509

/// One X.509 CRL (RFC 5280 §5), read strictly from DER: the exact bytes of `tbsCertList` (what the signature
/// covers), its issuer, times, revoked serials with their reasons, and the extensions verifierd understands. Anything
/// it does not understand is kept as a fact (a critical extension by OID, a delta indicator, an indirect scope) for
/// ``CRLJudge`` to refuse; only what cannot be read at all throws.
public struct CertificateRevocationList: Sendable {
    /// One revoked certificate.
    public struct Entry: Sendable, Equatable {
        public let revocationDate: Date
        /// `reasonCode`, when the entry has one (absent: unspecified).
        public let reason: CRLReason?
        /// OIDs of critical entry extensions other than those understood (`reasonCode`, `invalidityDate`).
        public let unknownCriticalExtensions: [String]
        /// Whether the entry names another certificate issuer (an indirect CRL's `certificateIssuer`).
        public let namesCertificateIssuer: Bool
    }

    /// The issuingDistributionPoint extension (RFC 5280 §5.2.5), as far as verifierd reads it.
    public struct IssuingDistributionPoint: Sendable, Equatable {
        /// The fullName URIs of its distributionPoint (empty when it names none, or only other name forms).
        public var uris: [String] = []
        /// Whether it names a distribution point at all (any form).
        public var namesDistributionPoint = false
        public var onlyContainsUserCerts = false
        public var onlyContainsCACerts = false
        public var onlySomeReasons = false
        public var indirectCRL = false
        public var onlyContainsAttributeCerts = false
    }

    /// Why bytes are not a CRL verifierd can read.
    public struct Malformed: Error, Sendable, Equatable {
        public let detail: String
    }

    /// Most extensions on the CRL, and on one entry.
    public static let maximumExtensions = 32

    /// The DER of `tbsCertList`, exactly as received.
    public let tbsBytes: [UInt8]
    /// 1 or 2 (RFC 5280 encodes v2 as INTEGER 1; absent means v1).
    public let version: Int
    public let signatureAlgorithm: Certificate.SignatureAlgorithm?
    /// The OID of the signature algorithm, for a detail when it is not one verifierd verifies.
    public let signatureAlgorithmOID: String
    public let issuer: DistinguishedName
    public let thisUpdate: Date
    public let nextUpdate: Date?
    /// Revoked entries by serial number (the INTEGER's content bytes, as in the certificate).
    public let entries: [ArraySlice<UInt8>: Entry]
    public let crlNumber: ArraySlice<UInt8>?
    public let crlNumberIsCritical: Bool
    /// The AuthorityKeyIdentifier's keyIdentifier, when present.
    public let authorityKeyIdentifier: [UInt8]?
    public let issuingDistributionPoint: IssuingDistributionPoint?
    /// A deltaCRLIndicator is present: a delta CRL (never used alone).
    public let isDelta: Bool
    /// OIDs of critical CRL extensions verifierd does not understand.
    public let unknownCriticalExtensions: [String]
    /// Whether the CRL has any extension (a v1 CRL must not).
    public let hasExtensions: Bool
    /// Whether any entry has extensions (a v1 CRL must not).
    public let entriesHaveExtensions: Bool
    public let signature: [UInt8]
    /// The size of the DER, for cache budgets.
    public let byteCount: Int

    static let reasonCodeOID: ASN1ObjectIdentifier = [2, 5, 29, 21]
    static let invalidityDateOID: ASN1ObjectIdentifier = [2, 5, 29, 24]
    static let certificateIssuerOID: ASN1ObjectIdentifier = [2, 5, 29, 29]
    static let crlNumberOID: ASN1ObjectIdentifier = [2, 5, 29, 20]
    static let deltaCRLIndicatorOID: ASN1ObjectIdentifier = [2, 5, 29, 27]
    static let issuingDistributionPointOID: ASN1ObjectIdentifier = [2, 5, 29, 28]
    static let authorityKeyIdentifierOID: ASN1ObjectIdentifier = [2, 5, 29, 35]
    static let freshestCRLOID: ASN1ObjectIdentifier = [2, 5, 29, 46]
    static let authorityInfoAccessOID: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 1, 1]

    public init(derEncoded bytes: [UInt8]) throws(Malformed) {
        do {
            self = try Self.read(bytes)
        } catch let error as Malformed {
            throw error
        } catch {
            throw Malformed(detail: "not a DER CertificateList (\(String(describing: error).prefix(120)))")
        }
    }

    private init(tbsBytes: [UInt8], version: Int, signatureAlgorithm: Certificate.SignatureAlgorithm?, signatureAlgorithmOID: String,
                 issuer: DistinguishedName, thisUpdate: Date, nextUpdate: Date?, entries: [ArraySlice<UInt8>: Entry],
                 extensions: Extensions, entriesHaveExtensions: Bool, signature: [UInt8], byteCount: Int) {
        self.tbsBytes = tbsBytes
        self.version = version
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureAlgorithmOID = signatureAlgorithmOID
        self.issuer = issuer
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.entries = entries
        crlNumber = extensions.crlNumber
        crlNumberIsCritical = extensions.crlNumberIsCritical
        authorityKeyIdentifier = extensions.authorityKeyIdentifier
        issuingDistributionPoint = extensions.issuingDistributionPoint
        isDelta = extensions.isDelta
        unknownCriticalExtensions = extensions.unknownCritical
        hasExtensions = extensions.any
        self.entriesHaveExtensions = entriesHaveExtensions
        self.signature = signature
        self.byteCount = byteCount
    }

    struct Extensions {
        var any = false
        var crlNumber: ArraySlice<UInt8>?
        var crlNumberIsCritical = false
        var authorityKeyIdentifier: [UInt8]?
        var issuingDistributionPoint: IssuingDistributionPoint?
        var isDelta = false
        var unknownCritical: [String] = []
    }

    // MARK: Reading

    static func read(_ bytes: [UInt8]) throws -> CertificateRevocationList {
        let root = try DER.parse(bytes)
        guard root.encodedBytes.count == bytes.count else { throw Malformed(detail: "bytes after the CertificateList") }
        return try DER.sequence(root, identifier: .sequence) { nodes in
            guard let tbsNode = nodes.next(), let algorithmNode = nodes.next(), let signatureNode = nodes.next(), nodes.next() == nil else {
                throw Malformed(detail: "a CertificateList is SEQUENCE {tbsCertList, signatureAlgorithm, signatureValue}")
            }
            let outer = try algorithmIdentifier(algorithmNode)
            let signatureBits = try ASN1BitString(derEncoded: signatureNode)
            guard signatureBits.paddingBits == 0 else { throw Malformed(detail: "the signature is not whole bytes") }
            return try DER.sequence(tbsNode, identifier: .sequence) { fields in
                var field = fields.next()
                var version = 1
                if let node = field, node.identifier == .integer {
                    let value = try Int(derEncoded: node)
                    guard value == 1 else { throw Malformed(detail: "version \(value + 1) (only v2 is encoded)") }
                    version = 2
                    field = fields.next()
                }
                guard let innerNode = field else { throw Malformed(detail: "tbsCertList ends before its signature algorithm") }
                let inner = try algorithmIdentifier(innerNode)
                guard inner.bytes == outer.bytes else {
                    throw Malformed(detail: "the signature algorithm inside tbsCertList differs from the outer one")
                }
                guard let issuerNode = fields.next() else { throw Malformed(detail: "tbsCertList has no issuer") }
                let issuer = try DistinguishedName(derEncoded: issuerNode)
                guard let thisNode = fields.next() else { throw Malformed(detail: "tbsCertList has no thisUpdate") }
                let thisUpdate = try time(thisNode)
                field = fields.next()
                var nextUpdate: Date?
                if let node = field, node.identifier == .utcTime || node.identifier == .generalizedTime {
                    nextUpdate = try time(node)
                    field = fields.next()
                }
                var entries: [ArraySlice<UInt8>: Entry] = [:]
                var entriesHaveExtensions = false
                if let node = field, node.identifier == .sequence {
                    try node.children().forEach { entryNode in
                        let (serial, entry, hasExtensions) = try revokedEntry(entryNode)
                        entriesHaveExtensions = entriesHaveExtensions || hasExtensions
                        guard entries.updateValue(entry, forKey: serial) == nil else {
                            throw Malformed(detail: "a serial number is listed twice")
                        }
                    }
                    guard !entries.isEmpty else { throw Malformed(detail: "revokedCertificates is present but empty") }
                    field = fields.next()
                }
                var extensions = Extensions()
                if let node = field {
                    guard node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) else {
                        throw Malformed(detail: "unexpected field in tbsCertList")
                    }
                    extensions = try crlExtensions(node)
                    field = fields.next()
                }
                guard field == nil else { throw Malformed(detail: "unexpected field after crlExtensions") }
                return CertificateRevocationList(
                    tbsBytes: Array(tbsNode.encodedBytes), version: version, signatureAlgorithm: signatureAlgorithm(outer.oid),
                    signatureAlgorithmOID: outer.oid.description, issuer: issuer, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
                    entries: entries, extensions: extensions, entriesHaveExtensions: entriesHaveExtensions,
                    signature: Array(signatureBits.bytes), byteCount: bytes.count)
            }
        }
    }

    static func algorithmIdentifier(_ node: ASN1Node) throws -> (oid: ASN1ObjectIdentifier, bytes: ArraySlice<UInt8>) {
        let oid = try DER.sequence(node, identifier: .sequence) { nodes -> ASN1ObjectIdentifier in
            guard let oidNode = nodes.next() else { throw Malformed(detail: "an AlgorithmIdentifier without an OID") }
            let oid = try ASN1ObjectIdentifier(derEncoded: oidNode)
            if let parameters = nodes.next() {
                // RSA PKCS#1 v1.5 takes NULL parameters; ECDSA none (RFC 5758).
                guard parameters.identifier == .null, nodes.next() == nil else { throw Malformed(detail: "unexpected AlgorithmIdentifier parameters") }
            }
            return oid
        }
        return (oid, node.encodedBytes)
    }

    /// The algorithms verified: ECDSA with SHA-2 and RSA PKCS#1 v1.5 with SHA-2 (never SHA-1).
    static func signatureAlgorithm(_ oid: ASN1ObjectIdentifier) -> Certificate.SignatureAlgorithm? {
        switch oid {
        case [1, 2, 840, 10045, 4, 3, 2]: return .ecdsaWithSHA256
        case [1, 2, 840, 10045, 4, 3, 3]: return .ecdsaWithSHA384
        case [1, 2, 840, 10045, 4, 3, 4]: return .ecdsaWithSHA512
        case [1, 2, 840, 113549, 1, 1, 11]: return .sha256WithRSAEncryption
        case [1, 2, 840, 113549, 1, 1, 12]: return .sha384WithRSAEncryption
        case [1, 2, 840, 113549, 1, 1, 13]: return .sha512WithRSAEncryption
        default: return nil
        }
    }

    /// A Time (UTCTime or GeneralizedTime) in whole seconds, UTC (RFC 5280 §5.1.2.4–5).
    static func time(_ node: ASN1Node) throws -> Date {
        let components: (year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
        switch node.identifier {
        case .utcTime:
            let time = try UTCTime(derEncoded: node)
            components = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        case .generalizedTime:
            let time = try GeneralizedTime(derEncoded: node)
            guard time.fractionalSeconds == 0 else { throw Malformed(detail: "a GeneralizedTime with fractional seconds") }
            components = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        default:
            throw Malformed(detail: "a time that is neither UTCTime nor GeneralizedTime")
        }
        return Date(timeIntervalSince1970: TimeInterval(RFC3339Timestamp.daysSinceEpoch(year: components.year, month: components.month, day: components.day)) * 86_400
                    + TimeInterval(components.hours * 3600 + components.minutes * 60 + components.seconds))
    }

    /// One extension: its OID, criticality and the OCTET STRING's content.
    static func extensionFields(_ node: ASN1Node) throws -> (oid: ASN1ObjectIdentifier, critical: Bool, value: ArraySlice<UInt8>) {
        try DER.sequence(node, identifier: .sequence) { nodes in
            guard let oidNode = nodes.next() else { throw Malformed(detail: "an extension without an OID") }
            let oid = try ASN1ObjectIdentifier(derEncoded: oidNode)
            var next = nodes.next()
            var critical = false
            if let node = next, node.identifier == .boolean {
                critical = try Bool(derEncoded: node)
                // DER: DEFAULT FALSE is never encoded.
                guard critical else { throw Malformed(detail: "an extension encodes critical FALSE (DER leaves the default out)") }
                next = nodes.next()
            }
            guard let valueNode = next, nodes.next() == nil else { throw Malformed(detail: "an extension without a value") }
            let value = try ASN1OctetString(derEncoded: valueNode)
            return (oid, critical, value.bytes)
        }
    }

    static func revokedEntry(_ node: ASN1Node) throws -> (ArraySlice<UInt8>, Entry, Bool) {
        try DER.sequence(node, identifier: .sequence) { nodes in
            guard let serialNode = nodes.next(), serialNode.identifier == .integer, let dateNode = nodes.next() else {
                throw Malformed(detail: "a revoked entry is SEQUENCE {serialNumber, revocationDate, ...}")
            }
            guard case .primitive(let serial) = serialNode.content, !serial.isEmpty else { throw Malformed(detail: "an empty serial number") }
            let date = try time(dateNode)
            var reason: CRLReason?
            var unknown: [String] = []
            var namesIssuer = false
            var hasExtensions = false
            if let extensionsNode = nodes.next() {
                hasExtensions = true
                guard nodes.next() == nil else { throw Malformed(detail: "unexpected field in a revoked entry") }
                let list = try extensionsNode.children()
                guard !list.isEmpty, list.count <= maximumExtensions else { throw Malformed(detail: "an entry's extensions are empty or too many") }
                var seen = Set<ASN1ObjectIdentifier>()
                for item in list {
                    let (oid, critical, value) = try extensionFields(item)
                    guard seen.insert(oid).inserted else { throw Malformed(detail: "an entry repeats an extension") }
                    switch oid {
                    case reasonCodeOID:
                        let enumerated = try ASN1Integer.enumerated(DER.parse(value))
                        guard let known = CRLReason(rawValue: enumerated) else { throw Malformed(detail: "reasonCode \(enumerated) is not defined") }
                        reason = known
                    case invalidityDateOID:
                        _ = try GeneralizedTime(derEncoded: DER.parse(value))
                    case certificateIssuerOID:
                        namesIssuer = true
                    default:
                        if critical { unknown.append(oid.description) }
                    }
                }
            }
            return (serial, Entry(revocationDate: date, reason: reason, unknownCriticalExtensions: unknown, namesCertificateIssuer: namesIssuer),
                    hasExtensions)
        }
    }

    static func crlExtensions(_ node: ASN1Node) throws -> Extensions {
        try DER.explicitlyTagged(node, tagNumber: 0, tagClass: .contextSpecific) { inner in
            let list = try inner.children()
            guard !list.isEmpty, list.count <= maximumExtensions else { throw Malformed(detail: "crlExtensions is empty or holds too many") }
            var extensions = Extensions()
            extensions.any = true
            var seen = Set<ASN1ObjectIdentifier>()
            for item in list {
                let (oid, critical, value) = try extensionFields(item)
                guard seen.insert(oid).inserted else { throw Malformed(detail: "the CRL repeats an extension") }
                switch oid {
                case crlNumberOID:
                    let parsed = try DER.parse(value)
                    guard parsed.identifier == .integer, case .primitive(let number) = parsed.content else {
                        throw Malformed(detail: "cRLNumber is not an INTEGER")
                    }
                    extensions.crlNumber = number
                    extensions.crlNumberIsCritical = critical
                case authorityKeyIdentifierOID:
                    let parsed = try AuthorityKeyIdentifier(Certificate.Extension(oid: oid, critical: critical, value: value))
                    extensions.authorityKeyIdentifier = parsed.keyIdentifier.map { Array($0) }
                case issuingDistributionPointOID:
                    extensions.issuingDistributionPoint = try issuingDistributionPoint(value)
                case deltaCRLIndicatorOID:
                    extensions.isDelta = true
                case freshestCRLOID, authorityInfoAccessOID:
                    // Where to find delta CRLs, and the issuer's certificate: not needed to use a complete base CRL.
                    if critical { extensions.unknownCritical.append(oid.description) }
                default:
                    if critical { extensions.unknownCritical.append(oid.description) }
                }
            }
            return extensions
        }
    }

    /// IssuingDistributionPoint ::= SEQUENCE { distributionPoint [0], onlyContainsUserCerts [1], onlyContainsCACerts [2],
    /// onlySomeReasons [3], indirectCRL [4], onlyContainsAttributeCerts [5] } (implicit tags; booleans DEFAULT FALSE).
    static func issuingDistributionPoint(_ value: ArraySlice<UInt8>) throws -> IssuingDistributionPoint {
        try DER.sequence(DER.parse(value), identifier: .sequence) { nodes in
            var point = IssuingDistributionPoint()
            while let node = nodes.next() {
                guard node.identifier.tagClass == .contextSpecific else { throw Malformed(detail: "issuingDistributionPoint holds an untagged field") }
                func flag() throws -> Bool {
                    guard case .primitive(let content) = node.content, content.count == 1, content.first == 0xFF else {
                        throw Malformed(detail: "an issuingDistributionPoint flag is not DER TRUE")
                    }
                    return true
                }
                switch node.identifier.tagNumber {
                case 0:
                    point.namesDistributionPoint = true
                    point.uris = try distributionPointNameURIs(node)
                case 1: point.onlyContainsUserCerts = try flag()
                case 2: point.onlyContainsCACerts = try flag()
                case 3: point.onlySomeReasons = true
                case 4: point.indirectCRL = try flag()
                case 5: point.onlyContainsAttributeCerts = try flag()
                default: throw Malformed(detail: "issuingDistributionPoint holds field [\(node.identifier.tagNumber)]")
                }
            }
            return point
        }
    }

    /// The URIs of a DistributionPointName's fullName ([0] GeneralNames); none for nameRelativeToCRLIssuer.
    static func distributionPointNameURIs(_ node: ASN1Node) throws -> [String] {
        guard case .constructed(let children) = node.content else { throw Malformed(detail: "a distributionPoint that is not constructed") }
        var uris: [String] = []
        for child in children {
            guard child.identifier.tagClass == .contextSpecific, child.identifier.tagNumber == 0 else { continue }
            guard case .constructed(let names) = child.content else { throw Malformed(detail: "fullName is not constructed") }
            for name in names where name.identifier.tagClass == .contextSpecific && name.identifier.tagNumber == 6 {
                guard case .primitive(let text) = name.content, let uri = String(bytes: text, encoding: .ascii) else {
                    throw Malformed(detail: "a distribution point URI is not ASCII")
                }
                uris.append(uri)
            }
        }
        return uris
    }
}

extension ASN1Integer {
    /// An ENUMERATED's value (RFC 5280's reasonCode), small and non-negative.
    static func enumerated(_ node: ASN1Node) throws -> Int {
        guard node.identifier == .enumerated, case .primitive(let content) = node.content, content.count == 1, content.first! < 0x80 else {
            throw CertificateRevocationList.Malformed(detail: "reasonCode is not a small ENUMERATED")
        }
        return Int(content.first!)
    }
}

/// A placeholder namespace so `ASN1Integer.enumerated` reads naturally.
enum ASN1Integer {}

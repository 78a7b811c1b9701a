import Foundation
import Testing
import TestSupport
import X509
@testable import TrustLists

/// The payload, the dates, the EU profiles and the grants, on variants of the vectors' lists signed here with the
/// vectors' TEST-ONLY signer.
struct LoTEContentTests {
    static func code(_ bytes: [UInt8], kind: LoTEKind, verifier: LoTEVerifier = LoTEVerifier()) -> LoTEError.Code? {
        LoTETestLists.code { try LoTETestLists.verify(bytes, kind: kind, verifier: verifier) }
    }

    /// `name` with each replacement, signed again; its code as `kind`.
    static func code(_ name: String, as kind: LoTEKind, _ replacements: [(String, String)]) throws -> LoTEError.Code? {
        code(try LoTETestLists.resigned(name, replacing: replacements), kind: kind)
    }

    // MARK: Dates

    @Test func staleGraceAndTheBoundaries() throws {
        let bytes = try LoTETestLists.list("mdl-valid")
        let nextUpdate = TestClock.date("2030-05-01T00:00:00Z")
        func code(at time: Date, grace: TimeInterval = 0) -> LoTEError.Code? {
            LoTETestLists.code { try LoTETestLists.verify(bytes, kind: .mdl, at: time, staleGrace: grace) }
        }
        #expect(code(at: nextUpdate.addingTimeInterval(-1)) == nil)
        #expect(code(at: nextUpdate) == .stale, "at NextUpdate the list is stale")
        #expect(code(at: nextUpdate.addingTimeInterval(3_600), grace: 7_200) == nil, "within the grace")
        #expect(code(at: nextUpdate.addingTimeInterval(7_200), grace: 7_200) == .stale)
        let issued = TestClock.date("2029-12-01T00:00:00Z")
        #expect(code(at: issued.addingTimeInterval(-299)) == nil, "within the clock skew")
        #expect(code(at: issued.addingTimeInterval(-301)) == .notYetValid)
        #expect(LoTETestLists.code {
            try LoTETestLists.verify(bytes, kind: .mdl, at: issued.addingTimeInterval(-60), verifier: LoTEVerifier(clockSkew: 0))
        } == .notYetValid)
    }

    @Test func nextUpdateAtMostSixCalendarMonthsAfterIssue() throws {
        let next = "\"NextUpdate\":\"2030-05-01T00:00:00Z\""
        #expect(try Self.code("pid-valid", as: .pid, [(next, "\"NextUpdate\":\"2030-06-01T00:00:00Z\"")]) == nil)
        #expect(try Self.code("pid-valid", as: .pid, [(next, "\"NextUpdate\":\"2030-06-01T00:00:01Z\"")]) == .profileViolation)
        #expect(try Self.code("pid-valid", as: .pid, [(next, "\"NextUpdate\":\"2029-12-01T00:00:00Z\"")]) == .stale)
        #expect(try Self.code("pid-valid", as: .pid, [(next, "\"NextUpdate\":null")]) == .closed)
    }

    @Test func dateTimesAreExactlyTheTSForm() throws {
        let issued = "\"ListIssueDateTime\":\"2029-12-01T00:00:00Z\""
        for bad in ["2029-12-01T00:00:00+00:00", "2029-12-01t00:00:00Z", "2029-12-01T00:00:00z", "2029-12-01 00:00:00Z",
                    "2029-12-1T00:00:00Z", "2029-02-30T00:00:00Z", "2029-12-01T24:00:00Z", "2029-12-01T00:00:60Z", ""] {
            #expect(try Self.code("mdl-valid", as: .mdl, [(issued, "\"ListIssueDateTime\":\"\(bad)\"")]) == .malformed, "\(bad)")
        }
        #expect(try Self.code("mdl-valid", as: .mdl, [(issued, "\"ListIssueDateTime\":\"2029-11-30T23:59:59Z\"")]) == nil)
    }

    // MARK: The payload

    @Test func theSchemaIsClosedAndTyped() throws {
        let identity = "\"X509SKIs\":["
        #expect(try Self.code("mdl-valid", as: .mdl, [(identity, "\"Unknown\":1,\(identity)")]) == .malformed,
                "ServiceDigitalIdentity is closed although the schema fails to close it")
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"lang\":\"en\",\"value\":\"verifierd Test Scheme Operator\"",
                                                        "\"lang\":\"en\",\"value\":\"verifierd Test Scheme Operator\",\"x\":1")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"LoTEVersionIdentifier\":1", "\"LoTEVersionIdentifier\":\"1.1.1\"")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"LoTEVersionIdentifier\":1", "\"LoTEVersionIdentifier\":1.0")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"LoTESequenceNumber\":3", "\"LoTESequenceNumber\":-3")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"lang\":\"en\",\"value\":\"verifierd Test Scheme Operator\"",
                                                        "\"lang\":\"\",\"value\":\"verifierd Test Scheme Operator\"")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"uriValue\":\"https://mdl.verifierd.example/\"", "\"uriValue\":\"\"")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("{\"LoTE\":", "{\"LoTE\":{}, \"Other\":")]) == .malformed)
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"SchemeTerritory\":\"EU\"", "\"SchemeTerritory\":\"EUR\"")]) == .malformed)
        // A version other than 1 is refused for its version, whatever else it holds.
        #expect(try Self.code("mdl-valid", as: .mdl, [("\"LoTEVersionIdentifier\":1", "\"LoTEVersionIdentifier\":2,\"New\":true")])
                == .versionUnsupported)
    }

    @Test func countLimits() throws {
        let bytes = try LoTETestLists.list("pid-valid")
        var limits = LoTELimits()
        limits.maximumBytes = bytes.count - 1
        #expect(Self.code(bytes, kind: .pid, verifier: LoTEVerifier(limits: limits)) == .tooLarge)
        limits = LoTELimits()
        limits.maximumEntities = 0
        #expect(Self.code(bytes, kind: .pid, verifier: LoTEVerifier(limits: limits)) == .tooLarge)
        limits = LoTELimits()
        limits.maximumServicesPerEntity = 1
        #expect(Self.code(bytes, kind: .pid, verifier: LoTEVerifier(limits: limits)) == .tooLarge)
        limits = LoTELimits()
        limits.maximumCertificatesPerService = 0
        #expect(Self.code(bytes, kind: .pid, verifier: LoTEVerifier(limits: limits)) == .tooLarge)
        limits = LoTELimits()
        limits.maximumX5CLength = 1
        #expect(Self.code(try LoTETestLists.list("pki-x5c-chain"), kind: .mdl, verifier: LoTEVerifier(limits: limits)) == .headerInvalid)
    }

    // MARK: The profiles

    @Test func profileRules() throws {
        // History and a HistoricalInformationPeriod outside Pub-EAA.
        #expect(try Self.code("pid-valid", as: .pid, [("\"ListIssueDateTime\"", "\"HistoricalInformationPeriod\":65535,\"ListIssueDateTime\"")])
                == .profileViolation)
        // A Pub-EAA service without its status, and with a status of no profile.
        let status = "\"ServiceStatus\":\"http://uri.etsi.org/19602/PubEAAProvidersList/SvcStatus/notified\","
        let starting = ",\"StatusStartingTime\":\"2029-12-01T00:00:00Z\""
        #expect(try Self.code("generic-notified", as: .pubeaa, [(status, ""), (starting, "")]) == .profileViolation)
        #expect(try Self.code("generic-notified", as: .pubeaa, [("SvcStatus/notified", "SvcStatus/granted")]) == .profileViolation)
        // The same list read as another kind.
        #expect(Self.code(try LoTETestLists.list("generic-notified"), kind: .pid) == .profileViolation)
        #expect(Self.code(try LoTETestLists.list("pid-valid"), kind: .wallet) == .profileViolation)
        // The territory.
        #expect(try Self.code("pid-valid", as: .pid, [("\"SchemeTerritory\":\"EU\"", "\"SchemeTerritory\":\"DE\"")]) == .signerNameMismatch,
                "the signer's C=EU no longer names the territory")
        // The community rules.
        #expect(try Self.code("pid-valid", as: .pid, [("PIDProviders/schemerules/EU", "PIDProvidersList/schemerules/EU")]) == .profileViolation)
    }

    @Test func theDeprecatedMDLIssuanceTypeIsAccepted() throws {
        let bytes = try LoTETestLists.resigned("mdl-valid", replacing: [
            ("http://trust.ec.europa.eu/lists/mDL/SvcType/Issuance", "http://uri.etsi.org/19602/SvcType/mDL/Issuance"),
        ])
        let verified = try LoTETestLists.verify(bytes, kind: .mdl)
        #expect(verified.grants.map(\.purpose) == [.issuance])
        #expect(verified.grants.map(\.grantsTrust) == [true])
    }

    /// The WRPRC profile accepts the TS's misspelt status determination approach and its correction.
    @Test func theWRPRCStatusDeterminationTypoAndItsCorrection() throws {
        for approach in ["WRPRCrovidersList", "WRPRCProvidersList"] {
            let bytes = try LoTETestLists.resigned("pid-valid", replacing: [
                ("LoTEType/EUPIDProvidersList", "LoTEType/EUWRPRCProvidersList"),
                ("PIDProvidersList/StatusDetn/EU", "\(approach)/StatusDetn/EU"),
                ("PIDProviders/schemerules/EU", "WRPRCProvidersList/schemerules/EU"),
                ("SvcType/PID/", "SvcType/WRPRC/"),
            ])
            let verified = try LoTETestLists.verify(bytes, kind: .wrprc)
            #expect(verified.grants.map(\.purpose) == [.issuance, .revocation], "\(approach)")
        }
    }

    // MARK: Grants

    /// The first `"val":"..."` of a list's payload.
    static func firstCertificateValue(_ name: String) throws -> String {
        let payload = try LoTETestLists.payload(of: name)
        let start = try #require(payload.range(of: "\"val\":\""))
        let end = try #require(payload[start.upperBound...].firstIndex(of: "\""))
        return String(payload[start.upperBound..<end])
    }

    @Test func anUnreadableCertificateIsSkippedNeverTrusted() throws {
        let value = try Self.firstCertificateValue("mdl-valid")
        for replacement in ["AAAA", "not base64!", String(value.prefix(value.count / 8 * 4))] {
            let verified = try LoTETestLists.verify(
                try LoTETestLists.resigned("mdl-valid", replacing: [(value, replacement)]), kind: .mdl)
            #expect(verified.grants.isEmpty, "\(replacement.prefix(12))")
            #expect(verified.skipped.map(\.index) == ["TrustedEntitiesList[0].TrustedEntityServices[0].X509Certificates[0]"])
        }
    }

    @Test func aWRPACProviderMustBeACA() throws {
        let value = try Self.firstCertificateValue("wrpac-valid")
        let verified = try LoTETestLists.verify(
            try LoTETestLists.resigned("wrpac-valid", replacing: [(value, try LoTETestLists.operatorSignerX5C())]), kind: .wrpac)
        #expect(verified.grants.isEmpty)
        #expect(verified.skipped.count == 1)
        #expect(verified.skipped.first?.reason.contains("not a CA certificate") == true)
    }

    @Test func aPubEAAServiceGrantsTrustOnlyOnceNotified() throws {
        let starting = "\"StatusStartingTime\":\"2029-12-01T00:00:00Z\""
        let later = try LoTETestLists.verify(try LoTETestLists.resigned(
            "generic-notified", replacing: [(starting, "\"StatusStartingTime\":\"2030-02-01T00:00:00Z\"")]), kind: .pubeaa)
        #expect(later.grants.map(\.grantsTrust) == [false], "notified only from a later time")
        let now = try LoTETestLists.verify(try LoTETestLists.list("generic-notified"), kind: .pubeaa)
        #expect(now.grants.map(\.grantsTrust) == [true])
        // A service whose identity has no certificate: skipped, not a profile violation in Pub-EAA.
        let value = try Self.firstCertificateValue("generic-notified")
        let keyOnly = try LoTETestLists.verify(try LoTETestLists.resigned("generic-notified", replacing: [
            ("\"X509Certificates\":[{\"val\":\"\(value)\"}],", "\"PublicKeyValues\":[{\"kty\":\"EC\"}],"),
        ]), kind: .pubeaa)
        #expect(keyOnly.grants.isEmpty)
        #expect(keyOnly.skipped.first?.reason.contains("PublicKeyValues") == true)
        // Outside Pub-EAA a service without X509Certificates breaks the profile.
        let pidValue = try Self.firstCertificateValue("pid-valid")
        #expect(try Self.code("pid-valid", as: .pid, [("\"X509Certificates\":[{\"val\":\"\(pidValue)\"}],", "")]) == .profileViolation)
    }

    @Test func theGrantsCountry() throws {
        let verified = try LoTETestLists.verify(try LoTETestLists.list("mdl-valid"), kind: .mdl)
        #expect(verified.grants.first?.country == "US", "the certificate's countryName")
        #expect(verified.grants.first?.entityName == "verifierd TEST-ONLY mDL Provider")
        let listed = try LoTETestLists.verify(try LoTETestLists.resigned("mdl-valid", replacing: [
            ("\"TEInformationURI\":[", "\"TEInformationURI\":[{\"lang\":\"en\",\"uriValue\":\"http://uri.etsi.org/19602/ListOfTrustedEntities/mDLProvider/FR\"},"),
        ]), kind: .mdl)
        #expect(listed.grants.first?.country == "FR", "the ETSI information URI")
    }

    // MARK: The signer

    @Test func aPinnedSignerCertificateIsAnAnchorToo() throws {
        let signer = try LoTETestLists.certificate("pki/operator-signer.pem")
        let bytes = try LoTETestLists.list("mdl-valid")
        #expect(LoTETestLists.code { try LoTETestLists.verify(bytes, kind: .mdl, anchors: [signer]) } == nil)
        #expect(LoTETestLists.code { try LoTETestLists.verify(bytes, kind: .mdl, anchors: []) } == .signerUntrusted)
        let other = try LoTETestLists.certificate("pki/other-ca.pem")
        #expect(LoTETestLists.code { try LoTETestLists.verify(bytes, kind: .mdl, anchors: [other]) } == .signerUntrusted)
        #expect(LoTETestLists.code { try LoTETestLists.verify(bytes, kind: .mdl, anchors: [other, try LoTETestLists.operatorCA()]) } == nil)
        // Past the signer's validity (2074).
        #expect(LoTETestLists.code {
            try LoTETestLists.verify(bytes, kind: .mdl, at: TestClock.date("2075-01-01T00:00:00Z"))
        } == .signerUntrusted)
    }

    // MARK: Succession

    @Test func aListNeverGoesBackNorReusesItsNumber() throws {
        let valid = try LoTETestLists.verify(try LoTETestLists.list("mdl-valid"), kind: .mdl)
        let sameNumber = try LoTETestLists.verify(try LoTETestLists.list("pki-x5c-chain"), kind: .mdl)
        func code(_ list: VerifiedLoTE, _ sequence: UInt64?, _ sha256: String?) -> LoTEError.Code? {
            do {
                try list.checkSuccession(afterSequence: sequence, sha256: sha256)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code(valid, nil, nil) == nil, "the first list of a source")
        #expect(code(valid, 2, "x") == nil)
        #expect(code(valid, 3, valid.sha256) == nil, "the same list fetched again")
        #expect(code(valid, 4, valid.sha256) == .sequenceRegression)
        #expect(code(sameNumber, 3, valid.sha256) == .sequenceRegression, "the same number with other content")
        do {
            try sameNumber.checkSuccession(afterSequence: 3, sha256: valid.sha256)
        } catch {
            #expect(error.detail.contains("reused"))
        }
    }
}

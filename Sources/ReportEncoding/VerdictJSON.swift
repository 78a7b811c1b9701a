import Encodings
import MDoc
import OpenID4VP
import SDJWT
import SDJWTVC
import StrictJSON

/// The JSON of an OpenID4VP verdict: the report shape every flow answers with (`verified`, `code`, `message`,
/// `documents`), its documents in the order presented, each saying its `format`, and `credentialIds` parallel to
/// `documents`. An SD-JWT VC document keeps the holder's KB-JWT claims in `keyBinding`, apart from the issuer's.
public enum VerdictJSON {
    public static func bytes(_ verdict: OpenID4VPVerdict, includeClaims: Bool, credentialIds: Bool = true,
                      extra: [(String, JSON?)] = []) -> [UInt8] {
        guard !verdict.documents.isEmpty else {
            let report = verdict.report
            return ReportJSON.bytes(report, includeClaims: includeClaims, extra: [("detail", .string(report.failureDetail ?? ""))] + extra)
        }
        let includeClaims = includeClaims && verdict.verified
        var writer = JSONWriter(capacity: 4096)
        ReportJSON.writeHead(verified: verdict.verified, code: verdict.failureCode, message: { message(verdict) }, into: &writer)
        for document in verdict.documents {
            switch document.report {
            case .mdoc(let report): ReportJSON.write(report, includeClaims: includeClaims, into: &writer)
            case .sdJwtVc(let report): write(report, includeClaims: includeClaims, into: &writer)
            }
        }
        let ids: JSON? = credentialIds ? .array(verdict.documents.map { .string($0.credentialId) }) : nil
        ReportJSON.writeTail(extra: [("credentialIds", ids)] + extra, into: &writer)
        return writer.bytes
    }

    /// The first failing check of the first failing document, whatever its format.
    static func message(_ verdict: OpenID4VPVerdict) -> String {
        for document in verdict.documents {
            let failing: (id: String, detail: String?, code: String?)?
            switch document.report {
            case .mdoc(let report): failing = report.checks.first { $0.status == .failed }.map { ($0.id.rawValue, $0.detail, $0.code?.rawValue) }
            case .sdJwtVc(let report): failing = report.checks.first { $0.status == .failed }.map { ($0.id.rawValue, $0.detail, $0.code?.rawValue) }
            }
            if let failing { return "\(failing.id) failed: \(failing.detail ?? failing.code ?? "")" }
        }
        return verdict.failureDetail ?? "not verified"
    }

    /// One SD-JWT VC: `format`, `vct`, `verified`, the issuer-signed `claims` (only when the whole answer verified),
    /// the `disclosed` paths, `issuer`, `validity`, the holder's `keyBinding` and every check.
    static func write(_ report: SDJWTVCReport, includeClaims: Bool, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("format")
        writer.string(SDJWTVCVerifier.credentialType)
        // Read from the payload: written only when the issuer's signature verified (anyone can sign a payload with a
        // certificate of their own), and cut to 256 bytes.
        let signed = report.check(.issuerSignature)?.status == .passed
        if signed, let vct = report.vct {
            writer.key("vct")
            writer.string(String(vct.utf8.prefix(256)) ?? "")
        }
        writer.key("verified")
        writer.bool(report.verified)
        if includeClaims && report.verified, let claims = report.claims {
            writer.key("claims")
            writer.value(claims)
            writer.key("disclosed")
            writer.beginArray()
            for path in report.disclosedPaths { writer.string(path.dotted) }
            writer.endArray()
        }
        writer.key("issuer")
        writer.beginObject()
        for (name, value) in [("iss", signed ? report.issuer.iss.map { String($0.utf8.prefix(256)) ?? "" } : nil),
                              ("signer", report.issuer.signerSubject), ("anchor", report.issuer.anchorSubject),
                              ("anchorSha256", report.issuer.anchorSHA256),
                              ("metadata", signed ? report.issuer.metadataSource.map { String($0.utf8.prefix(512)) ?? "" } : nil),
                              ("keyId", report.issuer.keyID.map { String($0.utf8.prefix(256)) ?? "" })] {
            guard let value else { continue }
            writer.key(name)
            writer.string(value)
        }
        writer.endObject()
        writer.key("validity")
        writer.beginObject()
        for (name, value) in [("issuedAt", report.issuedAt), ("notBefore", report.notBefore), ("expiresAt", report.expiresAt)] {
            guard let value else { continue }
            writer.key(name)
            writer.timestamp(value)
        }
        writer.endObject()
        if let binding = report.keyBinding {
            // Holder-asserted, never issuer data: what the holder's KB-JWT signed.
            writer.key("keyBinding")
            writer.beginObject()
            writer.key("issuedAt")
            writer.timestamp(binding.issuedAt)
            writer.key("audience")
            writer.string(binding.audience)
            if !report.approvedTransactionData.isEmpty {
                // What the holder's key approved, so that the integrator executes exactly that.
                writer.key("transactionData")
                writer.beginArray()
                for approved in report.approvedTransactionData {
                    writer.beginObject()
                    writer.key("index")
                    writer.int(Int64(approved.index))
                    writer.key("type")
                    writer.string(approved.type)
                    writer.key("hashAlgorithm")
                    writer.string(approved.hashAlgorithm.rawValue)
                    writer.key("hash")
                    writer.string(approved.hash)
                    if let object = approved.object {
                        writer.key("data")
                        writer.value(object)
                    }
                    writer.endObject()
                }
                writer.endArray()
            }
            writer.endObject()
        }
        writer.key("checks")
        writer.beginArray()
        for check in report.checks {
            ReportJSON.writeCheck(id: check.id.rawValue, outcome: check.status, code: check.code?.rawValue, detail: check.detail,
                                  into: &writer)
        }
        writer.endArray()
        writer.endObject()
    }
}

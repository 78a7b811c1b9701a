import CBOR
import Foundation
import Testing
import TestSupport
@testable import MDoc

/// `VerificationOptions.sessionTranscriptSource`: with a transcript the caller supplied, the `device.authentication`
/// detail says the device authentication proves only that transcript; with one the verifier built (the default), it
/// says nothing of the kind.
struct SessionTranscriptSourceTests {
    func deviceAuthentication(_ source: SessionTranscriptSource?, transcript: [UInt8] = SignedDocumentBuilder.sessionTranscript)
        throws -> CheckResult
    {
        var options = VerificationOptions(verificationTime: SignedDocumentBuilder.verificationTime)
        if let source { options.sessionTranscriptSource = source }
        let report = MDocVerifier(trust: try SignedDocumentBuilder.trust()).verify(
            deviceResponse: try SignedDocumentBuilder().deviceResponse(), sessionTranscript: transcript, options: options)
        return try #require(report.documents.first?.check(.deviceAuthentication))
    }

    @Test func theVerifierIsTheDefaultAndItsDetailClaimsNoCallerTranscript() throws {
        #expect(VerificationOptions(verificationTime: Date()).sessionTranscriptSource == .verifier)
        for source in [nil, SessionTranscriptSource.verifier] {
            let check = try deviceAuthentication(source)
            #expect(check.status == .passed)
            #expect(check.detail == "ES256 device signature")
        }
    }

    @Test func aCallerTranscriptIsNamedInTheDetailWhetherItVerifiesOrNot() throws {
        let passed = try deviceAuthentication(.caller)
        #expect(passed.status == .passed)
        #expect(passed.detail == "ES256 device signature; " + DeviceAuthenticationCheck.callerTranscriptNote)
        #expect(passed.detail?.contains("only the transcript the caller chose") == true)

        let other = CBOREncoder().encode([nil, nil, ["verifierd-test-handover", .bytes([9, 9, 9])]])
        let failed = try deviceAuthentication(.caller, transcript: other)
        #expect(failed.status == .failed)
        #expect(failed.code == .deviceSignatureInvalid)
        #expect(failed.detail?.hasSuffix(DeviceAuthenticationCheck.callerTranscriptNote) == true)
        let failedByVerifier = try deviceAuthentication(.verifier, transcript: other)
        #expect(failedByVerifier.status == .failed)
        #expect(failedByVerifier.detail?.contains("caller") == false)
    }
}

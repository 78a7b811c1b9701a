import Encodings
import Foundation
@testable import StatusList
import TestSupport
import Testing

/// Token Status List's own encoding examples (sections 4.1 and 4.2, and the appendix's 2^20-entry lists of 1, 2, 4
/// and 8 bits; `TestVectors/sdjwt-spec/tsl-encoding.json`): every listed index has its value, every other is 0.
@Suite struct StatusListSpecEncodingTests {
    @Test func everySpecListDecodesToItsStatuses() throws {
        let lists = try JSONValue.load(Fixtures.testVectors.appendingPathComponent("sdjwt-spec/tsl-encoding.json")).array
        #expect(lists.count >= 6)
        for entry in lists {
            guard case .integer(let bits)? = entry["bits"], let lst = entry["lst"]?.string else { Issue.record("entry"); continue }
            let statuses = try ZlibInflate.inflate(try #require(Base64URL.decodeBytes(lst)), maximumBytes: 16 << 20)
            let list = VerifiedStatusList(uri: "", content: .statusList(bits: Int(bits), statuses: statuses), issuedAt: Date(),
                                          expiresAt: nil, timeToLive: nil, signerTrust: .none, signerCertificate: [])
            var expected: [UInt64: UInt8] = [:]
            for (index, value) in entry["statuses"]?.object ?? [:] {
                if case .integer(let status) = value, let position = UInt64(index) { expected[position] = UInt8(status) }
            }
            for index in entry["setIndices"]?.array ?? [] {
                if case .integer(let position) = index { expected[UInt64(position)] = 1 }
            }
            #expect(!expected.isEmpty)
            let size: UInt64
            if case .integer(let declared)? = entry["size"] { size = UInt64(declared) } else { size = UInt64(statuses.count * 8 / Int(bits)) }
            for index in 0..<size {
                #expect(list.status(at: index) == (expected[index] ?? 0), "\(entry["name"]?.string ?? "") index \(index)")
                if list.status(at: index) != (expected[index] ?? 0) { return }
            }
        }
    }
}

import Encodings
import Testing

/// PEM (RFC 7468): line ends, whitespace and explanatory text accepted; broken blocks refused, naming block and line.
struct PEMTests {
    static let certificate: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    static let key: [UInt8] = (0..<121).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
    static let lf = PEM.encode(label: "CERTIFICATE", bytes: certificate)

    static func with(_ lineEnd: String, _ text: String = lf) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: lineEnd)
    }

    func error(_ text: String) -> PEMError? {
        #expect(throws: PEMError.self) { try PEM.blocks(in: text) }
    }

    @Test func encodingWrapsAt64AndReadsBack() throws {
        let lines = Self.lf.split(separator: "\n")
        #expect(lines.first == "-----BEGIN CERTIFICATE-----")
        #expect(lines.last == "-----END CERTIFICATE-----")
        #expect(lines.dropFirst().dropLast().dropLast().allSatisfy { $0.count == 64 })
        #expect(Self.lf.hasSuffix("-----\n"))
        let blocks = try PEM.blocks(in: Self.lf)
        #expect(blocks == [PEMBlock(label: "CERTIFICATE", bytes: Self.certificate, index: 1, line: 1)])
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineEndReadsTheSame(lineEnd: String) throws {
        let text = Self.with(lineEnd)
        #expect(try PEM.blocks(in: text).map(\.bytes) == [Self.certificate])
        #expect(try PEM.blocks(in: Array(text.utf8)).map(\.bytes) == [Self.certificate])
    }

    @Test func mixedLineEndsCountLinesOnce() throws {
        // Explanatory text on lines 1-3 (CR, CRLF, LF ends), then two blocks.
        let key = PEM.encode(label: "EC PRIVATE KEY", bytes: Self.key)
        let text = "subject=CN=Test\rissuer=CN=Test\r\n\n" + Self.with("\r\n") + "between the blocks\r" + Self.with("\r", key)
        let blocks = try PEM.blocks(in: text)
        #expect(blocks.map(\.label) == ["CERTIFICATE", "EC PRIVATE KEY"])
        #expect(blocks.map(\.bytes) == [Self.certificate, Self.key])
        #expect(blocks.map(\.index) == [1, 2])
        let certificateLines = Self.lf.split(separator: "\n").count
        #expect(blocks.map(\.line) == [4, 4 + certificateLines + 1])
    }

    @Test func whitespaceAroundAndInsideLinesIsIgnored() throws {
        var lines = Self.lf.split(separator: "\n").map(String.init)
        lines[0] = "  " + lines[0] + " \t"
        lines[1] = "\t" + lines[1].prefix(10) + " " + lines[1].dropFirst(10) + "   "
        lines[lines.count - 1] += "\u{0B}\u{0C} "
        let text = lines.joined(separator: "\r\n") + "\r\n"
        #expect(try PEM.blocks(in: text).map(\.bytes) == [Self.certificate])
        // Blank lines inside the body too.
        let blank = Self.lf.replacingOccurrences(of: "-----\n", with: "-----\n\n")
        #expect(try PEM.blocks(in: blank).map(\.bytes) == [Self.certificate])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        #expect(try PEM.blocks(in: [0xEF, 0xBB, 0xBF] + Array(Self.with("\r\n").utf8)).map(\.bytes) == [Self.certificate])
        // Anywhere else it is not whitespace.
        #expect(error("-----BEGIN X-----\r\n\u{FEFF}Zm9v\r\n-----END X-----") != nil)
    }

    @Test func noBlockIsNoBlock() throws {
        #expect(try PEM.blocks(in: "").isEmpty)
        #expect(try PEM.blocks(in: "just text\r\n----------\r\n").isEmpty)
        #expect(!PEM.containsBlock(Array("just text".utf8)))
        #expect(PEM.containsBlock(Array(("text first\r\n" + Self.lf).utf8)))
    }

    @Test func mismatchedLabelsNameTheBlockAndLine() {
        let text = "intro\n" + Self.lf.replacingOccurrences(of: "END CERTIFICATE", with: "END PRIVATE KEY")
        #expect(error(text) == .labelMismatch(block: 1, line: 2, begin: "CERTIFICATE", end: "PRIVATE KEY"))
        #expect(error(text)?.description == "PEM block 1 (line 2) begins CERTIFICATE but ends PRIVATE KEY")
    }

    @Test func missingEndIsRefused() {
        let cut = String(Self.lf.dropLast("-----END CERTIFICATE-----\n".count))
        #expect(error(Self.with("\r\n", cut)) == .missingEnd(block: 1, label: "CERTIFICATE", line: 1))
        #expect(error(cut + Self.lf) == .missingEnd(block: 1, label: "CERTIFICATE", line: 1))
        let second = Self.lf.split(separator: "\n").count + 1
        #expect(error(Self.lf + Self.with("\r", cut))?.description
            == "PEM block 2 (CERTIFICATE, line \(second)) has no END line")
        #expect(error("-----END CERTIFICATE-----\r\n") == .endWithoutBegin(line: 1))
    }

    @Test func badBase64NamesTheLine() throws {
        var lines = Self.lf.split(separator: "\n").map(String.init)
        lines[3] = String(lines[3].dropLast()) + "*"
        let bad = error(lines.joined(separator: "\r\n"))
        #expect(bad == .invalidBase64(block: 1, label: "CERTIFICATE", line: 1,
                                      reason: "a character outside the base64 alphabet on line 4"))
        #expect(bad?.description.contains("PEM block 1 (CERTIFICATE, line 1) is not valid base64") == true)
        // The URL-safe alphabet is not PEM's.
        #expect(error("-----BEGIN X-----\nab-_\n-----END X-----") != nil)
        // Length, padding, canonical bits.
        #expect(error("-----BEGIN X-----\nZm9vY\n-----END X-----") != nil)
        #expect(error("-----BEGIN X-----\nZm9vYg\n-----END X-----") != nil)
        #expect(try PEM.blocks(in: "-----BEGIN X-----\nZm9vYg==\n-----END X-----").first?.bytes == Array("foob".utf8))
        #expect(error("-----BEGIN X-----\nZm9vYh==\n-----END X-----") != nil)
        #expect(error("-----BEGIN X-----\nZg==\nZg==\n-----END X-----") != nil)
        #expect(error("-----BEGIN X-----\nZm9v===\n-----END X-----") != nil)
        #expect(error("-----BEGIN X-----\n\n-----END X-----") == .emptyBody(block: 1, label: "X", line: 1))
    }

    @Test func legacyEncryptedHeadersAreNamed() {
        let text = "-----BEGIN EC PRIVATE KEY-----\r\nProc-Type: 4,ENCRYPTED\r\nDEK-Info: AES-128-CBC,00\r\n\r\nAAAA\r\n-----END EC PRIVATE KEY-----\r\n"
        #expect(error(text) == .headers(block: 1, label: "EC PRIVATE KEY", line: 1, headerLine: 2))
    }

    @Test(arguments: [
        "-----BEGIN CERTIFICATE----", "-----BEGINCERTIFICATE-----", "-----BEGIN CERT--IFICATE-----",
        "-----BEGIN  CERTIFICATE-----", "-----BEGIN CERTIFICATE -----", "-----BEGIN CERTIFICATE\u{7F}-----",
        "-----BEGIN CERTIFICATE-----junk",
    ])
    func malformedBoundariesAreRefused(line: String) {
        #expect(error("text\r\n" + line + "\r\nAAAA\r\n-----END CERTIFICATE-----\r\n") == .malformedBoundary(line: 2))
    }

    @Test func labelsMayHoldSingleSpacesAndHyphens() throws {
        let text = PEM.encode(label: "X509 CRL", bytes: Self.key) + PEM.encode(label: "A-B C", bytes: Self.key)
        #expect(try PEM.blocks(in: text).map(\.label) == ["X509 CRL", "A-B C"])
    }

    @Test func largeInputIsOnePass() throws {
        // 2 MiB of body with CR line ends, and 100,000 lines of text around it.
        let bytes = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0) }
        let text = String(repeating: "note\r", count: 50_000) + Self.with("\r", PEM.encode(label: "BIG", bytes: bytes))
            + String(repeating: "\n", count: 50_000)
        let blocks = try PEM.blocks(in: text)
        #expect(blocks.count == 1)
        #expect(blocks.first?.bytes == bytes)
        #expect(blocks.first?.line == 50_001)
    }
}

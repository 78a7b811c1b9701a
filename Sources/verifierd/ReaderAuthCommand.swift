import ArgumentParser
import Crypto
import Foundation
import ReaderAuthentication

#if canImport(Glibc)
import Glibc
#endif

/// `verifierd reader-auth`: reader certificates for signed web requests.
struct ReaderAuthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader-auth", abstract: "Reader authentication (readerAuth) material.", subcommands: [ReaderAuthInit.self])
}

/// `verifierd reader-auth init --out DIR`: a TEST-ONLY reader root and reader certificate.
struct ReaderAuthInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a TEST-ONLY reader root CA and reader certificate; print the root's subject key identifier.",
        discussion: """
            Writes reader-root.pem, reader-root-key.pem, reader-auth.pem (the reader's signing key), \
            reader-auth-chain.pem (reader certificate, then root) into DIR; key files get mode 0600. \
            Point readerAuth.signingKey and readerAuth.certificateChain at the last two. The printed hex is what an \
            identity document provider app lists in supportedAuthorityKeyIdentifiers. Production readers use a \
            certificate from their trust framework instead (Apple Business Connect for Apple Wallet).
            """)

    @Option(help: "Folder to write into (created if missing; existing files are not overwritten).") var out: String
    @Option(name: .customLong("common-name"), help: "The reader certificate's common name.")
    var commonName = "verifierd TEST-ONLY reader"

    func run() throws {
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let chain = try ReaderAuthTestChain(commonName: commonName)
        let files: [(String, String, Bool)] = [
            ("reader-root.pem", try ReaderAuthTestChain.pem(chain.root), false),
            ("reader-root-key.pem", chain.rootKey.pemRepresentation + "\n", true),
            ("reader-auth.pem", chain.readerKey.pemRepresentation + "\n", true),
            ("reader-auth-chain.pem", try ReaderAuthTestChain.pem(chain.reader) + ReaderAuthTestChain.pem(chain.root), false),
        ]
        for (name, _, _) in files where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            throw CLIFailure.data("\(folder.appendingPathComponent(name).path) exists; choose an empty folder")
        }
        for (name, text, secret) in files {
            let path = folder.appendingPathComponent(name).path
            // Created with the final mode, so a key is never readable by others, not even for a moment.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, secret ? 0o600 : 0o644)
            guard descriptor >= 0 else { throw CLIFailure.data("cannot create \(path)") }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard written == bytes.count else { throw CLIFailure.data("cannot write \(path)") }
        }
        print(chain.rootKeyIdentifier.map { String(format: "%02x", $0) }.joined())
        FileHandle.standardError.write(Data("""
            wrote TEST-ONLY reader material to \(folder.path)
            readerAuth.signingKey: \(folder.appendingPathComponent("reader-auth.pem").path)
            readerAuth.certificateChain: \(folder.appendingPathComponent("reader-auth-chain.pem").path)
            the line above is the reader root's subject key identifier (hex) for supportedAuthorityKeyIdentifiers

            """.utf8))
    }
}

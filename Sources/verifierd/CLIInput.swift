import ArgumentParser
import Encodings
import Foundation
import VerifierService

/// Reading the CLI's inputs with messages that name the file and say what is wrong, never a library's error.
enum CLIInput {
    /// The bytes of `path`: "cannot read FILE: no such file", "... is a directory", "... permission denied".
    static func read(_ path: String, what: String = "file") throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("cannot read \(path): no such \(what)")
        }
        guard !isDirectory.boolValue else { throw ValidationError("cannot read \(path): it is a directory, not a \(what)") }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path): permission denied")
        }
        return Array(data)
    }

    /// Bytes given as text: `hex:` or `base64:` prefix, else hex when the text is only hex digits (even length),
    /// else base64 (standard or URL-safe, padding optional), as the HTTP API takes them.
    static func bytes(_ text: String, option: String) throws -> [UInt8] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationError("\(option) \(BinaryText.Failure.neither.reason)") }
        do throws(BinaryText.Failure) {
            return try BinaryText.decode(trimmed, unprefixedHex: { _ in true })
        } catch {
            throw ValidationError("\(option) \(error.reason)")
        }
    }
}

/// A command that cannot do what was asked because of the data it was given (not its usage): the reason on stderr
/// and exit status 2, without the usage line a usage error (64) prints.
enum CLIFailure {
    static func data(_ reason: String) -> ExitCode {
        FileHandle.standardError.write(Data("verifierd: \(reason)\n".utf8))
        return ExitCode(2)
    }
}

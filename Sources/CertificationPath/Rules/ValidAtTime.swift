import Encodings
import Foundation
import X509

/// Every certificate of the path, the anchor included unless said otherwise, is valid at `time`.
public struct ValidAtTime: PathRule {
    public let time: Date
    public let includingAnchor: Bool

    public init(_ time: Date, includingAnchor: Bool = true) {
        self.time = time
        self.includingAnchor = includingAnchor
    }

    public func problem(with candidate: PathCandidate, at stage: PathStage) -> PathProblem? {
        guard stage == .verified else { return nil }
        for certificate in candidate.path + (includingAnchor ? [candidate.anchor].compactMap({ $0 }) : [])
            where !(certificate.notValidBefore <= time && time <= certificate.notValidAfter)
        {
            return PathProblem(.expired, "\(certificate.subject) is valid \(Self.text(certificate.notValidBefore)) to "
                + "\(Self.text(certificate.notValidAfter)), not at \(Self.text(time))")
        }
        return nil
    }

    static func text(_ date: Date) -> String {
        RFC3339Timestamp.string(date)
    }
}

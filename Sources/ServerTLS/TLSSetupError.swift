/// Why a certificate, key or client CA could not be used. `setting` names the setting at fault.
public struct TLSSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which file is at fault.
    public enum Setting: String, Sendable, Hashable {
        case certificateChain, privateKey, clientCA
    }

    public let setting: Setting
    public let message: String

    public init(_ setting: Setting, _ message: String) {
        self.setting = setting
        self.message = message
    }

    public var description: String { "\(setting.rawValue): \(message)" }
}

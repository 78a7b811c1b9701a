/// Why the PostgreSQL store could not do what was asked.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration is unusable; `setting` names the key (`store.url`, `store.sessionKeyFile`, ...).
    case configuration(setting: String, reason: String)
    /// The database could not be reached or answered with an error (the message never carries a password).
    case unavailable(String)
    /// A row could not be read back (a damaged or foreign row).
    case corrupt(String)

    public var description: String {
        switch self {
        case .configuration(let setting, let reason): return "\(setting): \(reason)"
        case .unavailable(let reason): return "the database is unavailable: \(reason)"
        case .corrupt(let reason): return "unreadable row: \(reason)"
        }
    }
}

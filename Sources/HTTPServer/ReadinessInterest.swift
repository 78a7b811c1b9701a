/// What a connection waits for from its socket, and what the readiness set is armed for: the connection's side of
/// one-shot readiness, apart from the I/O (a report disarms the socket; it is armed again only when what is wanted
/// differs from what is armed, so a keep-alive request costs no arming call when nothing changed).
struct ReadinessInterest {
    /// More bytes: reading a request, or lingering.
    var wantsRead = false
    /// Room to write.
    var wantsWrite = false
    /// TLS: a read (handshake) needs the socket writable before it can go on.
    var readWaitsForWritable = false
    /// TLS: a write needs the socket readable before it can go on.
    var writeWaitsForReadable = false
    /// What the socket is armed for now.
    private(set) var armed: SocketReadiness.Events = []

    /// The events wanted.
    var wanted: SocketReadiness.Events {
        var events: SocketReadiness.Events = []
        if wantsRead { events.insert(.readable) }
        if wantsWrite { events.insert(.writable) }
        return events
    }

    /// What to arm the socket for, or nil when the arming in place will do. Waiting for nothing leaves an earlier
    /// arming in place: a report then finds nothing wanted, which costs less than a system call per request.
    var toArm: SocketReadiness.Events? {
        let events = wanted
        return events.isEmpty || events == armed ? nil : events
    }

    /// The socket was armed for `events`.
    mutating func didArm(_ events: SocketReadiness.Events) { armed = events }

    /// A report arrived: the one-shot arming is spent.
    mutating func reported() { armed = [] }
}

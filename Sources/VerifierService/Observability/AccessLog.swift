import HTTPServer
import Logging

extension VerifierService {
    /// The server's observer: one access-log line per response to `output` (the same JSON line shape as the
    /// service's other log lines, message `request`) and the HTTP metrics. Fields are written straight into the
    /// line's buffer with their JSON types: `requestId`, `method`, `route`, `status` (number), `durationMs`
    /// (number), `clientAddress` and `clientPort` (number) of the socket peer, `code` when the server answered an
    /// error itself, and the handler's annotations (`outcome`). Access lines are `info`: with `logging.level` above
    /// it they are not written (the metrics still count every request).
    public func requestObserver(output: LogOutput) -> HTTPRequestObserver {
        let metrics = self.metrics
        let label = logger.label
        let writesLines = configuration.logging.level <= .info
        return { record in
            let route = record.routePattern ?? "(unmatched)"
            metrics.httpRequest(route: route, method: record.method, status: record.status, duration: record.duration)
            guard writesLines else { return }
            var fields: [(key: String, value: AccessLogValue)] = [
                ("clientAddress", .text(record.clientAddress)),
                ("durationMs", .number(Double(record.duration.nanoseconds) / 1_000_000)),
                ("method", .text(record.method)),
                ("requestId", .text(record.requestID)),
                ("route", .text(route)),
                ("status", .integer(Int64(record.status))),
            ]
            if let port = record.clientPort { fields.append(("clientPort", .integer(Int64(port)))) }
            if let code = record.errorCode { fields.append(("code", .text(code))) }
            for (key, value) in record.annotations {
                if let index = fields.firstIndex(where: { $0.key == key }) {
                    fields[index].value = .text(value)
                } else {
                    fields.append((key, .text(value)))
                }
            }
            fields.sort { $0.key < $1.key }
            var writer = JSONLogHandler.beginLine(level: .info, logger: label, message: "request")
            for field in fields {
                writer.key(field.key)
                switch field.value {
                case .text(let text): writer.string(text)
                case .integer(let n): writer.int(n)
                case .number(let d): writer.double(d)
                }
            }
            writer.endObject()
            output.emit(line: writer.bytes)
        }
    }
}

/// A value in an access-log line, with its JSON type.
private enum AccessLogValue {
    case text(String)
    case integer(Int64)
    case number(Double)
}

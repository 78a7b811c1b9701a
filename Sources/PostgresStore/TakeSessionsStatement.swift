import PostgresNIO

/// The takes of ``PostgresSessionStore/take(id:kind:owner:now:)`` as one prepared statement for a batch: parsed and
/// planned once per connection, one round trip and one commit for every take waiting at the time
/// (``SessionTakeBatcher``). Each row is locked (in ID order, so that concurrent batches naming the same sessions
/// cannot deadlock), its sealed payload returned and cleared, and `taken_ms` stamped, so of any number of
/// concurrent takes of one session exactly one gets the payload.
struct TakeSessionsStatement: PostgresPreparedStatement {
    static let name = "verifierd_take_sessions_v2"
    static let sql = """
        WITH wanted AS (
            SELECT * FROM unnest($1::text[], $2::text[], $3::bool[], $4::text[], $5::int8[])
                AS w(id, kind, any_owner, owner, now_ms)),
        old AS (
            SELECT s.id, s.sealed, wanted.now_ms FROM verifierd_sessions AS s
            JOIN wanted ON s.id = wanted.id AND s.kind = wanted.kind AND (wanted.any_owner OR s.owner = wanted.owner)
            WHERE s.taken_ms IS NULL ORDER BY s.id FOR UPDATE OF s)
        UPDATE verifierd_sessions AS s SET sealed = NULL, taken_ms = old.now_ms
        FROM old WHERE s.id = old.id AND s.taken_ms IS NULL
        RETURNING s.id, s.created_ms, s.expires_ms, old.sealed, s.taken_ms, s.owner
        """
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .textArray, .boolArray, .textArray, .int8Array]

    typealias Row = (String, Int64, Int64, ByteBuffer?, Int64?, String)

    /// One take each; the IDs are distinct.
    let takes: [SessionTakeBatcher.Take]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(takes.map(\.id))
        bindings.append(takes.map(\.kind))
        bindings.append(takes.map(\.anyOwner))
        bindings.append(takes.map(\.owner))
        bindings.append(takes.map(\.nowMilliseconds))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}

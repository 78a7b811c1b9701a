import PostgresNIO

/// The take of ``PostgresSessionStore/take(id:kind:owner:now:)`` as a prepared statement: parsed and planned once per
/// connection instead of on every request. One statement, one round trip: the row is locked, its sealed payload
/// returned and cleared, and `taken_ms` stamped, so of any number of concurrent takes one gets the payload.
struct TakeSessionStatement: PostgresPreparedStatement {
    static let name = "verifierd_take_session_v1"
    static let sql = """
        WITH old AS (
            SELECT id, sealed FROM verifierd_sessions
            WHERE id = $1 AND kind = $2 AND ($3 OR owner = $4) AND taken_ms IS NULL FOR UPDATE)
        UPDATE verifierd_sessions AS s SET sealed = NULL, taken_ms = $5
        FROM old WHERE s.id = old.id AND s.taken_ms IS NULL
        RETURNING s.created_ms, s.expires_ms, old.sealed, s.taken_ms, s.owner
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .bool, .text, .int8]

    typealias Row = (Int64, Int64, ByteBuffer?, Int64?, String)

    let id: String
    let kind: String
    let anyOwner: Bool
    let owner: String
    let nowMilliseconds: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(id)
        bindings.append(kind)
        bindings.append(anyOwner)
        bindings.append(owner)
        bindings.append(nowMilliseconds)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}

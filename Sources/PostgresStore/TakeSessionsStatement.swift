import PostgresNIO

/// The takes of ``PostgresSessionStore/take(id:kind:owner:now:)`` as one prepared statement for a batch: one round
/// trip and one commit for every take waiting at the time (``SessionTakeBatcher``). Each row is locked (in ID order,
/// so that concurrent batches naming the same sessions cannot deadlock), its sealed payload returned and cleared, and
/// `taken_ms` stamped, so of any number of concurrent takes of one session exactly one gets the payload.
///
/// The work is the database function ``function`` (schema version 7), so that it is planned once per connection
/// rather than at every batch: a batch's custom plan cost PostgreSQL more than running it (37 % of its CPU in
/// `scripts/bench/bench-replicas.sh`). Its plan is the generic one, fixed to the shape that suits a batch at any
/// table size (a nested loop of primary-key lookups): the function's own settings forbid sequential scans, hash and
/// merge joins, so a plan made while the table was small is never a scan of it once it has grown.
struct TakeSessionsStatement: PostgresPreparedStatement {
    static let name = "verifierd_take_sessions_v3"
    static let sql = "SELECT * FROM verifierd_take_sessions($1, $2, $3, $4, $5)"
    static let bindingDataTypes: [PostgresDataType] = [.textArray, .textArray, .boolArray, .textArray, .int8Array]

    /// The take itself, over the function's arguments (`ids`, `kinds`, `any_owners`, `owners`, `now_ms`: one element
    /// per take): the rows it took, each with its payload as it was before the take cleared it.
    static let takeQuery = """
        WITH wanted AS (
            SELECT * FROM unnest(ids, kinds, any_owners, owners, now_ms) AS w(id, kind, any_owner, owner, now_ms)),
        old AS (
            SELECT s.id, s.sealed, wanted.now_ms FROM verifierd_sessions AS s
            JOIN wanted ON s.id = wanted.id AND s.kind = wanted.kind AND (wanted.any_owner OR s.owner = wanted.owner)
            WHERE s.taken_ms IS NULL ORDER BY s.id FOR UPDATE OF s),
        taken AS (
            UPDATE verifierd_sessions AS s SET sealed = NULL, taken_ms = old.now_ms
            FROM old WHERE s.id = old.id AND s.taken_ms IS NULL
            RETURNING s.id, s.created_ms, s.expires_ms, old.sealed, s.taken_ms, s.owner)
        SELECT * FROM taken
        """

    /// The function the statement calls (schema version 7): ``takeQuery`` with its plan fixed.
    static let function = """
        CREATE FUNCTION verifierd_take_sessions(ids text[], kinds text[], any_owners bool[], owners text[], now_ms int8[])
        RETURNS TABLE (taken_id text, taken_created_ms int8, taken_expires_ms int8, taken_sealed bytea,
                       taken_at_ms int8, taken_owner text)
        LANGUAGE plpgsql
        SET plan_cache_mode = force_generic_plan
        SET enable_seqscan = off
        SET enable_hashjoin = off
        SET enable_mergejoin = off
        AS $take$
        BEGIN
            RETURN QUERY
        \(takeQuery);
        END
        $take$
        """

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

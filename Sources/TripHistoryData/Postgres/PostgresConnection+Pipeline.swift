internal import CLibPQ

extension PostgresConnection {
    /// One statement of a pipeline and its bindings.
    struct PipelinedStatement: Sendable {
        let statement: PreparedStatement
        let bindings: PostgresBindings
    }

    /// Sends all `statements` at once in libpq's pipeline mode, then reads their results in order and hands
    /// each to `each` with its index: the rows, or the server's error for that statement alone (every
    /// statement has its own sync point, so one failing does not abort the others). Statements not yet
    /// prepared here are prepared first. Each result is awaited no longer than `queryTimeout`. Throws when
    /// the connection fails or times out; statements not reported by then have no result, and the connection
    /// must not be used again.
    func executePipelined(
        _ statements: [PipelinedStatement], each: (Int, Result<PostgresRows, PostgresError>) -> Void
    ) throws(PostgresError) {
        for statement in statements { try prepareIfNeeded(statement.statement) }
        try startExchange()
        guard PQenterPipelineMode(handle) == 1 else { throw lost("cannot enter pipeline mode") }
        for statement in statements {
            let sent = try withParameters(statement.bindings.values) { count, values in
                PQsendQueryPrepared(
                    handle, statement.statement.name, count, values, nil, nil, statement.statement.resultFormat.rawValue
                )
            }
            // The sync also tries to flush, so the server starts on each statement as it arrives.
            guard sent == 1, PQpipelineSync(handle) == 1 else { throw lost("cannot send a pipelined statement") }
        }
        try flush()
        for index in statements.indices {
            let result = try nextResult()
            let rows = PostgresRows(owning: result)
            let error = PostgresError.check(
                result: result, connection: handle, accepted: [PGRES_TUPLES_OK, PGRES_COMMAND_OK])
            if let error, error.isConnectionProblem { throw error }
            // A statement's results end with a null; its sync point follows.
            if let extra = try nextResult() {
                PQclear(extra)
                throw lost("a pipelined statement returned more than one result")
            }
            guard let sync = try nextResult() else { throw lost("a pipeline sync point is missing") }
            let status = PQresultStatus(sync)
            PQclear(sync)
            guard status == PGRES_PIPELINE_SYNC else { throw lost("a pipeline sync point is missing") }
            each(index, error.map { .failure($0) } ?? .success(rows))
        }
        guard PQexitPipelineMode(handle) == 1 else { throw lost("cannot leave pipeline mode") }
    }

    private func lost(_ what: String) -> PostgresError {
        PostgresError(kind: .connectionLost, message: "\(what): \(PostgresError.libpqMessage(handle))")
    }
}

import PostgresNIO
import PushTallyCore

/// How PostgreSQL errors reach callers: a retry inside the store, 503 for an unreachable database, or as they are.
enum PostgresFailure {
    /// SQLSTATEs where the transaction did nothing and running it again is right: a deadlock between
    /// collectors (40P01) or a serialization failure (40001).
    static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return false }
        return ["40P01", "40001"].contains(error.serverInfo?[.sqlState])
    }

    /// Whether `error` says the connection itself is gone (closed by either side, its backend terminated, or
    /// a reply PostgresNIO did not expect, after which it closes the connection), so nothing more can be sent on it.
    static func isConnectionLost(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .unexpectedBackendMessage:
            return true
        case .server:
            // Class 08: connection exception; 57P01-57P03: the backend was terminated or the server is going down.
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }

    /// Whether `error` says the connection's session cannot write (25006, `read_only_sql_transaction`): the
    /// database was made read-only (`default_transaction_read_only`), or the server is a standby (not yet
    /// promoted, or named as the primary by mistake). A session keeps that state from its start, so the
    /// connection is closed rather than pooled again: once the database can write, the next connections can.
    static func taintsConnection(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return false }
        return error.serverInfo?[.sqlState] == "25006"
    }

    /// The error a caller sees: connection-level failures and server shutdowns become
    /// ``StoreError/unavailable(reason:)`` (503 with Retry-After); everything else is unchanged.
    static func surface(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else {
            // The pool's own errors (its type is not public API): no connection could be made or leased.
            if String(reflecting: type(of: error)).contains("ConnectionPoolError") {
                return StoreError.unavailable(reason: "\(error)")
            }
            return error
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return StoreError.unavailable(reason: "\(error.code)")
        case .unexpectedBackendMessage:
            // What a backend terminated while idle looks like: its FATAL error arrives as the reply to the next
            // statement (`BEGIN`), and PostgresNIO closes the connection. Another connection may well succeed.
            return StoreError.unavailable(reason: "\(error.code)")
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            // Class 08: connection exception; 28: authorization; 3D: no such database; 53: insufficient
            // resources (a full disk among them); 57: operator intervention (a shutdown, a terminated backend, a
            // statement cancelled at its timeout); 58: a system error (I/O). 25006: a read-only database or a
            // standby; 55P03: a lock not had within `lock_timeout`. The database's state, not the request's:
            // the client retries later.
            if ["08", "28", "3D", "53", "57", "58"].contains(String(state.prefix(2))) || ["25006", "55P03"].contains(state) {
                return StoreError.unavailable(reason: error.serverInfo?[.message] ?? state)
            }
            return error
        default:
            return error
        }
    }
}

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
                return StoreError.unavailable(reason: "no connection to PostgreSQL could be had (\(error))")
            }
            return error
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return StoreError.unavailable(reason: "the connection to PostgreSQL failed (\(error.code))")
        case .unexpectedBackendMessage:
            // What a backend terminated while idle looks like: its FATAL error arrives as the reply to the next
            // statement (`BEGIN`), and PostgresNIO closes the connection. Another connection may well succeed.
            return StoreError.unavailable(reason: "the connection to PostgreSQL was ended (\(error.code))")
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            // Class 08: connection exception; 28: authorization; 3D: no such database; 53: insufficient
            // resources (a full disk among them); 57: operator intervention (a shutdown, a terminated backend, a
            // statement cancelled at its timeout); 58: a system error (I/O). 25006: a read-only database or a
            // standby; 55P03: a lock not had within `lock_timeout`. The database's state, not the request's:
            // the client retries later.
            if let reason = unavailableReason(sqlState: state) {
                return StoreError.unavailable(reason: "\(reason) (SQLSTATE \(state))")
            }
            return error
        default:
            return error
        }
    }

    /// What a client may be told of a server error that is the database's state (a fixed phrase: the server's
    /// own message may name tables and values, and the client may be anyone), or `nil` for any other error.
    static func unavailableReason(sqlState state: String) -> String? {
        switch state {
        case "25006": return "the database is read-only (a standby, or default_transaction_read_only)"
        case "55P03": return "a lock was not had in time"
        case "57014": return "a statement was cancelled at its timeout"
        default: break
        }
        switch state.prefix(2) {
        case "08": return "the connection to the database failed"
        case "28": return "the database refused the collector's credentials"
        case "3D": return "the database does not exist"
        case "53": return "the database server is out of resources (disk, memory or connections)"
        case "57": return "the database server is shutting down or ended the session"
        case "58": return "the database server reported a system error"
        default: return nil
        }
    }
}

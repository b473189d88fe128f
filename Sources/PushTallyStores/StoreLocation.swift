import PushTallyPostgres

/// Where a deployment's data lives, as a database URL names it: a file path or `sqlite:PATH` (the embedded
/// default), or `postgres://user:password@host:5432/database`.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// Reads a `--database` value (or `PUSHTALLY_DATABASE`): `postgres://` and `postgresql://` name PostgreSQL,
    /// anything else a SQLite file (with or without a `sqlite:` / `sqlite://` prefix).
    public init(_ text: String) {
        if PostgresURL.matches(text) {
            self = .postgres(url: text)
            return
        }
        for prefix in ["sqlite://", "sqlite:"] where text.hasPrefix(prefix) {
            self = .sqlite(path: String(text.dropFirst(prefix.count)))
            return
        }
        self = .sqlite(path: text)
    }

    public var isPostgres: Bool {
        if case .postgres = self { true } else { false }
    }

    /// For another tool's command line: a SQLite path, or a PostgreSQL URL without its password at all.
    public var withoutPassword: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): (try? PostgresURL(url).withoutPassword) ?? "postgres://…"
        }
    }

    /// For messages and logs: a PostgreSQL URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): (try? PostgresURL(url).description) ?? "postgres://…"
        }
    }
}

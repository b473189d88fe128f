/// One kind of report, declared in a file of its own: its route, the query parameters it takes, how it reads
/// them, what its client sends, its columns and how it is read from a store.
///
/// The server's routes and query checks, the CLI, the API client and the API document's tests all read the
/// ``ReportDeclaration`` of every kind in ``ReportKinds/all``, so a new report is a new conforming type and one
/// line in that list (docs/ARCHITECTURE.md).
///
/// A value of a kind carries what its request needs beyond the filter (a campaign name, a bucket width);
/// ``ReportSubject`` holds one.
public protocol ReportKind: Sendable, Hashable {
    /// The report's name, route, query parameters and summary.
    static var declaration: ReportDeclaration { get }

    /// The report `query` asks for; `pathValue` is what the route's path parameter holds.
    init(_ query: ReportQuery, pathValue: String?) throws(FieldError)

    /// What the route's path parameter holds (a campaign name, a push id); `nil` when the route has none.
    var pathValue: String? { get }

    /// The query parameters of the report's own options (not the filter's) that ask a server for it.
    func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)]

    /// The table with no rows: its name, column layout and types (``ReportTable/template``) and header
    /// fields. What a client decodes the server's JSON against, and the columns the API document describes.
    func emptyTable(_ request: ReportRequest) throws -> ReportTable

    /// Runs the report against `reader`'s rollups.
    /// - Throws: ``ReportNotFound`` for an unknown subject; ``FieldError`` for input only the data can refuse.
    func table(_ request: ReportRequest, from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable

    /// The report read a page at a time, for a report whose rows grow with the data (``ReportPages``); `nil`
    /// for a report read whole.
    func pages(_ request: ReportRequest) -> (any ReportPages)?
}

extension ReportKind {
    public var pathValue: String? { nil }

    public func pages(_ request: ReportRequest) -> (any ReportPages)? { nil }

    public func ownQuery(_ request: ReportRequest) -> [(name: String, value: String)] { [] }
}

/// What every part that routes, checks, asks for or documents a report reads about its kind.
public struct ReportDeclaration: Sendable, Hashable, CustomStringConvertible {
    /// The report's name: in refusals (`the push report takes...`), download file names
    /// (`pushtally-campaigns-2026-11-22.csv`) and as the CLI's `pushtally report` subcommand.
    public let name: String
    /// The route's path as the router takes it, its path parameter as `:name`.
    public let path: String
    /// The name of the path parameter, which is also the field a refusal of it names; `nil` when there is none.
    public let pathParameter: String?
    /// A second route for the report that takes the path parameter's value from the query instead
    /// (`/v1/reports/variants?campaign=..`): URL parsers drop or climb a `.` or `..` segment before the request
    /// leaves, so a name such as those can be asked for only in a query. `nil` when the report has none.
    public let queryAddressedPath: String?
    /// The query parameters the report takes, in the order the API documents them.
    public let parameters: [String]
    /// One line on what the report shows (the CLI's help).
    public let summary: String
    /// The kind that reads the report's query and runs it.
    public let kind: any ReportKind.Type

    /// The parameters most reports take: the push filter and the output's form.
    public static let commonParameters = ["from", "to", "app", "environment", "format", "bom"]

    public init(
        name: String, path: String, pathParameter: String? = nil, queryAddressedPath: String? = nil, parameters: [String],
        summary: String, kind: any ReportKind.Type
    ) {
        self.name = name
        self.path = path
        self.pathParameter = pathParameter
        self.queryAddressedPath = queryAddressedPath
        self.parameters = parameters
        self.summary = summary
        self.kind = kind
    }

    /// Whether the report takes the query parameter `name`.
    public func takes(_ name: String) -> Bool { parameters.contains(name) }

    /// Kinds are told apart by name: names are unique (``ReportKinds/all`` is checked for it).
    public static func == (lhs: ReportDeclaration, rhs: ReportDeclaration) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public var description: String { name }
}

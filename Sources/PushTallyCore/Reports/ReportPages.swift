/// A report read a page at a time (``ReportKind/pages(_:)``): each page a table of the report's columns whose
/// rows follow the previous page's, so that a server can write a report of any size holding one page.
public protocol ReportPages: Sendable {
    /// Whether every page has been read.
    var isDone: Bool { get }
    /// The next page's table (with no rows when the filter leaves the page empty), or `nil` after the last.
    mutating func next(from reader: some ReportReader, maturity: Maturity) async throws -> ReportTable?
}

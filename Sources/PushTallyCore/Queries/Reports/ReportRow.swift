/// One row of a report read as its engine hands it over (``QueryRow``), with the histograms reports read. The
/// reads below decode through it, so the order of a statement's columns and their meaning stand in one place.
package protocol ReportRow: QueryRow {
    /// `body` given the counts (`count(bucket)`) of the histogram that starts at `column`, in the form
    /// ``SQLDialect/histogram(_:)`` renders it for this row's engine.
    func withHistogram(at column: Int, _ body: (_ count: (_ bucket: Int) -> Int64) throws -> Void) throws
}

/// The decoding of the rows of the reads summed across pushes, each beside its statement under
/// `Queries/Reports/`, written once for both engines.
package enum ReportRowDecoding {}

import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PushTallyCore

/// A report whose rows grow with the data (``ReportKind/pages(_:)``), answered holding one page at a time.
///
/// Pages are read until they hold ``wholeRowLimit`` rows: a report that ends first is answered whole, with its
/// `Content-Length`, as any other. A longer one is written as it is read, chunked (HTTP/1.0: until the connection
/// closes), each page after the last has been handed to the socket, so a slow reader holds the server to one
/// page, not the report. A CSV header must name every column before the first row: a CSV of many pages is read
/// twice, first for its columns (the custom actions of every row).
///
/// A page that cannot be read once the answer has begun ends the connection without the chunked end, so a
/// client sees a cut answer as an error, never as a short report.
struct PagedReportResponse {
    /// The rows held before a report is written as it is read rather than whole.
    static let wholeRowLimit = 1000

    let pages: any ReportPages
    let name: String
    let query: ReportQuery
    let reads: ReportReadRouter
    let deadline: Duration
    let logger: Logger

    func make(for request: Request) async throws -> Response {
        let primary = reads.primary.configuration
        let maturity = Maturity(nowMillis: primary.clock(), windowMillis: primary.maturityWindowMillis)
        var pages = self.pages
        var held: [ReportTable] = []
        var first: (source: ReadSource, lagSeconds: Double)?
        while held.reduce(0, { $0 + $1.rows.count }) < Self.wholeRowLimit, let page = try await next(&pages, maturity) {
            held.append(page.table)
            if first == nil { first = (page.source, page.lagSeconds) }
        }
        let readFrom = first ?? (.primary, 0)
        ServerMetrics.reportRead(from: readFrom.source)
        guard !pages.isDone, var frame = held.first else {
            var table = held.first ?? ReportTable(name: name, rows: [])
            table.rows = held.flatMap(\.rows)
            return try ReportResponse.make(table, name: name, query: query, request: request, readFrom: readFrom)
        }
        frame.rows = []
        let (head, tail) = JSONRenderer.frame(frame)
        let format = ReportResponse.format(query, request: request)
        let layout = format == .csv ? try await csvLayout(of: held, maturity: maturity) : nil
        var headers = ReportResponse.headers(format, name: name, readFrom: readFrom)
        let gzip = ReportResponse.acceptsGzip(request)
        if gzip { headers[.contentEncoding] = "gzip" }
        let writer = self
        let body = ResponseBody { [held, pages] sink in
            var output = try PageOutput(sink, gzip: gzip)
            switch layout {
            case let layout?:
                try await output.write(Data(CSVRenderer.header(layout, bom: query.bom).utf8))
            case nil:
                try await output.write(head)
            }
            var rowsWritten = 0
            var pages = pages
            var page: ReportTable? = nil
            var heldPages = held[...]
            while true {
                if let next = heldPages.popFirst() {
                    page = next
                } else {
                    do {
                        page = try await writer.next(&pages, maturity)?.table
                    } catch {
                        writer.logger.error("a report's page could not be read after its answer began; its connection is closed", metadata: [
                            "report": "\(writer.name)", "error": "\(error)",
                        ])
                        throw error
                    }
                }
                guard let table = page else { break }
                guard !table.rows.isEmpty else { continue }
                switch layout {
                case let layout?:
                    try await output.write(Data(CSVRenderer.rows(table, layout: layout).utf8))
                case nil:
                    try await output.write((rowsWritten > 0 ? Data(",".utf8) : Data()) + JSONRenderer.rows(table))
                }
                rowsWritten += table.rows.count
            }
            if layout == nil { try await output.write(tail) }
            try await output.finish()
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The next page within the request's deadline, from where ``ReportReadRouter`` sends reads.
    private func next(
        _ pages: inout any ReportPages, _ maturity: Maturity
    ) async throws -> (table: ReportTable, source: ReadSource, lagSeconds: Double)? {
        let current = pages
        let answer = try await StoreDeadline.run(deadline) { [reads] in
            try await reads.read { reader in
                var pages = current
                return Paged(table: try await pages.next(from: reader, maturity: maturity), pages: pages)
            }
        }
        pages = answer.value.pages
        return answer.value.table.map { ($0, answer.source, answer.lagSeconds) }
    }

    /// A page read and the pages after it.
    private struct Paged: Sendable {
        let table: ReportTable?
        let pages: any ReportPages
    }

    /// The CSV columns of every page, read once for them alone.
    private func csvLayout(of held: [ReportTable], maturity: Maturity) async throws -> (fixed: [String], expanded: [String]) {
        var fixed = held[0].csvLayout.fixed
        var expanded: Set<String> = []
        var pages = self.pages
        while let page = try await next(&pages, maturity) {
            let layout = page.table.csvLayout
            for column in layout.fixed where !fixed.contains(column) { fixed.append(column) }
            expanded.formUnion(layout.expanded)
        }
        return (fixed, expanded.sorted())
    }
}

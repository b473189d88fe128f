import PushTallyCore

extension APIRoute {
    /// The report a report route serves; its query is read by ``ReportQuery``, which knows its parameters.
    var report: ReportDeclaration? {
        switch self {
        case .report(let report), .reportByQuery(let report): report
        default: nil
        }
    }

    /// The query parameters the route takes.
    var queryParameters: [String] {
        if case .reportByQuery(let report) = self { return report.parameters + (report.pathParameter.map { [$0] } ?? []) }
        if let report { return report.parameters }
        switch self {
        case .webhookDeliveries: return ["status", "limit"]
        case .replayWebhook: return ["since"]
        case .alertHistory: return ["limit"]
        case .deviceTimeline: return ["limit", "after"]
        case .eventFeed: return ["after", "limit", "follow", "heartbeat"]
        case .deviceStates: return ["days"]
        default: break
        }
        // `?key=` carries an ingest key for clients that cannot set headers.
        return eventKind != nil ? ["key"] : []
    }

    /// Refuses a query parameter the route does not take, or one given twice (a 400 naming it), rather than
    /// ignoring it: a typo must not read as "no data". Report routes check their own values (``ReportQuery``).
    func checkQuery(_ query: Substring?) throws(FieldError) {
        guard let query, !query.isEmpty, report == nil else { return }
        var seen = Set<String>()
        for (name, _) in try FormBody.pairs(query) {
            guard queryParameters.contains(name) else {
                let takes = queryParameters.isEmpty ? "takes no query parameters" : "takes \(queryParameters.joined(separator: ", "))"
                throw FieldError("unknown_parameter", "\(description) \(takes), not \(name)", field: name)
            }
            guard seen.insert(name).inserted else {
                throw FieldError("repeated_parameter", "\(name) is given more than once; give it once", field: name)
            }
        }
    }

    /// The ingest key of a request target such as `/v1/receipts?key=pt_...`, decoded as browsers encode.
    static func queryKey(in target: some StringProtocol) -> String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        let query = Substring(target[target.index(after: mark)...])
        return (try? FormBody.pairs(query))?.first { $0.name == "key" }?.value
    }
}

/// A report route's query string, read strictly: the one reading of report parameters, for the server's routes
/// and (through its value checks) the CLI's flags, so both refuse the same input with the same message.
///
/// - Decoded as browsers encode (``FormBody/pairs(_:)``: `+` is a space, escapes are UTF-8).
/// - A parameter the report does not take, a value outside an enumeration, or a single-valued parameter given
///   twice is a ``FieldError`` naming the parameter (a 400), never a silent empty answer.
/// - An empty value (`campaign=`) is the same as an absent parameter, as HTML forms send unfilled fields.
public struct ReportQuery: Sendable, Equatable {
    /// The report routes, as their query parameters differ.
    public enum Report: String, Sendable, CaseIterable {
        case campaigns, campaign, pushes, push, timeseries, versions, attribution, variants

        /// The query parameters this report takes, in the order the API documents them.
        public var parameters: [String] {
            let common = ["from", "to", "app", "environment", "format", "bom"]
            switch self {
            case .campaigns: return common + ["campaign", "by"]
            case .campaign: return common
            // One push is addressed by its id: a filter could only hide it.
            case .push: return ["format", "bom"]
            case .pushes: return common + ["campaign", "orphan"]
            case .timeseries: return common + ["campaign", "push_id", "bucket", "tz"]
            case .versions: return common + ["campaign", "push_id", "dimension"]
            // Totals by event time: unattributed sessions belong to no push, campaign or app.
            case .attribution: return ["from", "to", "format", "bom"]
            case .variants: return common + ["control"]
            }
        }
    }

    /// An output format a client can ask for.
    public enum Format: String, Sendable, CaseIterable {
        case json, csv
    }

    public var filter = ReportFilter()
    /// `nil`: the `Accept` header decides.
    public var format: Format?
    /// A UTF-8 byte order mark before CSV, for Excel.
    public var bom = false
    public var orphan: Bool?
    public var bucket = TimeseriesOptions.Width.day
    public var timeZone = "UTC"
    public var dimension = VersionDimension.appVersion
    /// The variants report's control variant; `nil`: `control` if present, else the first by name.
    public var control: String?
    /// Campaigns: split rows by this send attribute.
    public var by: ReportGrouping?

    public init() {}

    /// Reads `query` (the raw query string, without `?`) for `report`.
    public init(_ query: Substring?, report: Report) throws(FieldError) {
        var seen = Set<String>()
        for (name, value) in try FormBody.pairs(query ?? "") {
            try Self.check(name, takenBy: report)
            guard seen.insert(name).inserted else {
                throw FieldError("repeated_parameter", "\(name) is given more than once; give it once", field: name)
            }
            guard !value.isEmpty else { continue }
            try set(name, value)
        }
    }

    private mutating func set(_ name: String, _ value: String) throws(FieldError) {
        switch name {
        case "from": filter.fromMillis = try Timestamp.millis(from: .string(value), field: name)
        case "to": filter.toMillis = try Timestamp.millis(from: .string(value), field: name)
        case "campaign": filter.campaign = value
        case "push_id": filter.pushID = value
        case "app": filter.app = value
        case "environment": filter.environment = try Self.environment(value)
        // The format was always read case-insensitively (`CSV` is csv).
        case "format": format = try Self.oneOf(Format.self, value.lowercased(), name: name)
        case "bom": bom = try Self.flag(value, name: name, allowed: ["1", "0", "true", "false"])
        case "orphan": orphan = try Self.flag(value, name: name, allowed: ["true", "false"])
        case "bucket": bucket = try Self.oneOf(TimeseriesOptions.Width.self, value, name: name)
        case "tz":
            _ = try TimeseriesOptions.zone(named: value)
            timeZone = value
        case "dimension": dimension = try Self.dimension(value)
        case "control": control = value
        case "by": by = try Self.grouping(value)
        default: break
        }
    }

    /// The report this query asks for; `pathValue` is the campaign or push id of a report addressed by path.
    public func request(_ report: Report, pathValue: String? = nil) throws(FieldError) -> ReportRequest {
        let subject: ReportSubject
        switch report {
        case .campaigns: subject = .campaigns
        case .campaign: subject = .campaign(pathValue ?? "")
        case .pushes: subject = .pushes(orphan: orphan)
        case .push: subject = .push(pathValue ?? "")
        case .timeseries:
            subject = .timeseries(TimeseriesOptions(width: bucket, timeZone: try TimeseriesOptions.zone(named: timeZone), name: timeZone))
        case .versions: subject = .versions(dimension)
        case .attribution: subject = .attribution
        case .variants: subject = .variants(pathValue ?? "", control: control)
        }
        return ReportRequest(subject, filter: filter, by: report == .campaigns ? by : nil)
    }
}

extension ReportQuery {
    /// Refuses a parameter `report` does not take (the CLI asks too, for its filter flags).
    public static func check(_ name: String, takenBy report: Report) throws(FieldError) {
        guard report.parameters.contains(name) else {
            throw FieldError(
                "unknown_parameter",
                "the \(report.rawValue) report takes no parameter \(name); it takes \(report.parameters.joined(separator: ", "))",
                field: name)
        }
    }

    /// An APNs environment: `production` or `sandbox`.
    public static func environment(_ value: String) throws(FieldError) -> String {
        guard PushValidator.environments.contains(value) else {
            throw notAllowed("environment", value, PushValidator.environments.sorted())
        }
        return value
    }

    /// A time series bucket: `hour` or `day`.
    public static func bucket(_ value: String) throws(FieldError) -> TimeseriesOptions.Width {
        try oneOf(TimeseriesOptions.Width.self, value, name: "bucket")
    }

    /// A send attribute to group campaign rows by: `priority` or `push_type`.
    public static func grouping(_ value: String) throws(FieldError) -> ReportGrouping {
        try oneOf(ReportGrouping.self, value, name: "by")
    }

    /// A receipt-health dimension: `app_version` or `os_version`.
    public static func dimension(_ value: String) throws(FieldError) -> VersionDimension {
        guard let dimension = VersionDimension(name: value) else {
            throw notAllowed("dimension", value, VersionDimension.allCases.map(\.name))
        }
        return dimension
    }

    private static func oneOf<Value: RawRepresentable & CaseIterable>(
        _ type: Value.Type, _ value: String, name: String
    ) throws(FieldError) -> Value where Value.RawValue == String {
        guard let parsed = Value(rawValue: value) else { throw notAllowed(name, value, Value.allCases.map(\.rawValue)) }
        return parsed
    }

    private static func flag(_ value: String, name: String, allowed: [String]) throws(FieldError) -> Bool {
        guard allowed.contains(value) else { throw notAllowed(name, value, allowed) }
        return value == "1" || value == "true"
    }

    /// The error for a value outside an enumeration: it names the parameter and lists what is allowed.
    static func notAllowed(_ name: String, _ value: String, _ allowed: [String]) -> FieldError {
        FieldError("bad_value", "\(name) must be one of \(allowed.joined(separator: ", ")), not \(value)", field: name)
    }
}

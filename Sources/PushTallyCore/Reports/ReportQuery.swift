/// A report route's query string, read strictly: the one reading of report parameters, for the server's routes
/// and the CLI's flags (handed over as parameters), so both refuse the same input with the same message.
///
/// - Decoded as browsers encode (``FormBody/pairs(_:)``: `+` is a space, escapes are UTF-8).
/// - A parameter the report does not take, a value outside an enumeration, or a single-valued parameter given
///   twice is a ``FieldError`` naming the parameter (a 400), never a silent empty answer.
/// - An empty value (`campaign=`) is the same as an absent parameter, as HTML forms send unfilled fields.
public struct ReportQuery: Sendable, Equatable {
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
    /// Audience: a row per day, app or app version (the audience report's own values of `by`).
    public var audienceBy: AudienceGrouping?
    /// `from` and `to` as given: a date alone is read in `tz`, which may come after them.
    private var fromText: String?
    private var toText: String?

    public init() {}

    /// Reads `query` (the raw query string, without `?`) for `report`.
    public init(_ query: Substring?, report: ReportDeclaration) throws(FieldError) {
        try self.init(pairs: try FormBody.pairs(query ?? ""), report: report)
    }

    /// Reads decoded name and value pairs for `report` (the CLI hands its flags over as these).
    /// - Parameter emptyIsAbsent: whether an empty value is skipped, as a form's unfilled field is; a flag
    ///   given as empty on a command line is read as given.
    public init(pairs: [(name: String, value: String)], report: ReportDeclaration, emptyIsAbsent: Bool = true) throws(FieldError) {
        var seen = Set<String>()
        for (name, value) in pairs {
            try Self.check(name, takenBy: report)
            guard seen.insert(name).inserted else {
                throw FieldError("repeated_parameter", "\(name) is given more than once; give it once", field: name)
            }
            guard !value.isEmpty || !emptyIsAbsent else { continue }
            try set(name, value, report: report)
        }
        try readRange()
    }

    /// `from` and `to` in milliseconds, a date alone being midnight in the report's zone (UTC unless `tz` says
    /// otherwise); `from` after `to` is a range nothing falls in, refused rather than answered empty.
    private mutating func readRange() throws(FieldError) {
        let zone = try TimeseriesOptions.zone(named: timeZone)
        if let from = fromText { filter.fromMillis = try ReportRange.millis(from, field: "from", zone: zone) }
        if let to = toText { filter.toMillis = try ReportRange.millis(to, field: "to", zone: zone) }
        if let from = filter.fromMillis, let to = filter.toMillis, from > to {
            throw ReportRange.backwards(from: fromText ?? "", to: toText ?? "")
        }
    }

    private mutating func set(_ name: String, _ value: String, report: ReportDeclaration) throws(FieldError) {
        switch name {
        case "from": fromText = value
        case "to": toText = value
        case "campaign": filter.campaign = CanonicalText.nfc(value)
        case "push_id": filter.pushID = CanonicalText.nfc(value)
        case "platform": filter.platform = CanonicalText.nfc(value)
        case "app": filter.app = CanonicalText.nfc(value)
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
        case "control": control = CanonicalText.nfc(value)
        case "by" where report == .audience: audienceBy = try Self.oneOf(AudienceGrouping.self, value, name: name)
        case "by": by = try Self.grouping(value)
        default: break
        }
    }

    /// The report this query asks for; `pathValue` is the campaign or push id of a report addressed by path.
    public func request(_ report: ReportDeclaration, pathValue: String? = nil) throws(FieldError) -> ReportRequest {
        let kind = try report.kind.init(self, pathValue: pathValue.map(CanonicalText.nfc))
        return ReportRequest(ReportSubject(kind), filter: filter, by: report.takes("by") ? by : nil)
    }
}

extension ReportQuery {
    /// Refuses a parameter `report` does not take (the CLI asks too, for its filter flags).
    public static func check(_ name: String, takenBy report: ReportDeclaration) throws(FieldError) {
        guard report.takes(name) else {
            if name == "platform" { throw notKeptByPlatform(report) }
            throw FieldError(
                "unknown_parameter",
                "the \(report.name) report takes no parameter \(name); it takes \(report.parameters.joined(separator: ", "))",
                field: name)
        }
    }

    /// The refusal of a platform filter by a report whose figures are not kept by platform: answering it whole
    /// would pass other platforms' numbers off as the one asked for.
    static func notKeptByPlatform(_ report: ReportDeclaration) -> FieldError {
        let taking = ReportKinds.all.filter { $0.takes("platform") }.map(\.name)
        return FieldError(
            "not_kept_by_platform",
            "the \(report.name) report is not kept by platform, so it takes no platform filter; the \(taking.joined(separator: ", ")) reports take one",
            field: "platform")
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

    /// A receipt-health dimension: `app_version`, `os_version` or `platform`.
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

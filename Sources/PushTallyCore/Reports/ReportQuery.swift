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
    /// The zone a date alone in `from` or `to` is read in (`tz`), which the time series also buckets by.
    public var timeZone = "UTC"
    /// The report's own parameters, decoded as given (an empty one left out), for its kind to read and check
    /// (``ReportKind/init(_:pathValue:)``): `by`, `bucket`, `dimension`, `control`, `orphan`.
    public private(set) var options: [String: String] = [:]
    /// The common parameters checked once all are in (a date alone is read in `tz`, which may come after it).
    private var common: [String: String] = [:]

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
            set(name, value)
        }
        try readCommon()
        // The kind reads its own options; asked here too, so a bad one is refused with the rest of the query.
        _ = try report.kind.init(self, pathValue: nil)
    }

    /// The value given for the report's own parameter `name`, if any.
    public func option(_ name: String) -> String? { options[name] }

    /// The value of `name`, one of `Value`'s cases, if given.
    public func option<Value: RawRepresentable & CaseIterable>(_ name: String, as type: Value.Type) throws(FieldError) -> Value?
    where Value.RawValue == String {
        guard let value = options[name] else { return nil }
        return try Self.oneOf(type, value, name: name)
    }

    /// The flag `name` (one of `allowed`: `1`, `true`, `0`, `false`), if given.
    public func flag(_ name: String, allowed: [String] = ["true", "false"]) throws(FieldError) -> Bool? {
        guard let value = options[name] else { return nil }
        return try Self.flag(value, name: name, allowed: allowed)
    }

    /// The parameters every report reads alike: `format`, `bom` and `tz` checked, then `from` and `to` in
    /// milliseconds, a date alone being midnight in the report's zone (UTC unless `tz` says otherwise); `from`
    /// after `to` is a range nothing falls in, refused rather than answered empty.
    private mutating func readCommon() throws(FieldError) {
        // The format was always read case-insensitively (`CSV` is csv).
        if let value = common["format"] { format = try Self.oneOf(Format.self, value.lowercased(), name: "format") }
        if let value = common["bom"] { bom = try Self.flag(value, name: "bom", allowed: ["1", "0", "true", "false"]) }
        if let value = common["environment"] { filter.environment = try Self.environment(value) }
        if let value = common["tz"] {
            _ = try TimeseriesOptions.zone(named: value)
            timeZone = value
        }
        let zone = try TimeseriesOptions.zone(named: timeZone)
        if let from = common["from"] { filter.fromMillis = try ReportRange.millis(from, field: "from", zone: zone) }
        if let to = common["to"] { filter.toMillis = try ReportRange.millis(to, field: "to", zone: zone) }
        if let from = filter.fromMillis, let to = filter.toMillis, from > to {
            throw ReportRange.backwards(from: common["from"] ?? "", to: common["to"] ?? "")
        }
    }

    /// Files a parameter: the filter's text values as they are, the others to be checked once all are in.
    private mutating func set(_ name: String, _ value: String) {
        switch name {
        case "campaign": filter.campaign = CanonicalText.nfc(value)
        case "push_id": filter.pushID = CanonicalText.nfc(value)
        case "platform": filter.platform = PlatformName.folded(CanonicalText.nfc(value))
        case "app": filter.app = CanonicalText.nfc(value)
        case "from", "to", "environment", "format", "bom", "tz": common[name] = value
        default: options[name] = value
        }
    }

    /// The report this query asks for; `pathValue` is the campaign or push id of a report addressed by path.
    public func request(_ report: ReportDeclaration, pathValue: String? = nil) throws(FieldError) -> ReportRequest {
        var checked: String?
        if let pathValue, let parameter = report.pathParameter {
            // As long as ingest lets the id or name be, and no longer: a longer one names nothing stored.
            let limit = Self.pathLimits[parameter] ?? 256
            if pathValue.utf8.count > limit * CanonicalText.maxShrinkFactor {
                throw FieldError("too_long", "\(parameter) is longer than \(limit) bytes", field: parameter)
            }
            checked = CanonicalText.nfc(pathValue)
            if checked!.utf8.count > limit { throw FieldError("too_long", "\(parameter) is longer than \(limit) bytes", field: parameter) }
        }
        let kind = try report.kind.init(self, pathValue: checked)
        return ReportRequest(ReportSubject(kind), filter: filter)
    }
}

extension ReportQuery {
    /// The longest value of a report's path parameter, in bytes of NFC: what ingest and registration take.
    static let pathLimits = ["push_id": 128, "campaign": 256]

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

    static func oneOf<Value: RawRepresentable & CaseIterable>(
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

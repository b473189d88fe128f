/// What a campaigns report can split its rows by (`?by=priority`, `--by push_type`): an APNs send attribute
/// of each push, or the platform each receipt and action named (`platform`).
public enum ReportGrouping: String, Sendable, Hashable, CaseIterable {
    case priority
    case pushType = "push_type"
    case platform

    /// The platform of events that named none (``VersionDimension/platform``).
    public static let unknownPlatform = "unknown"

    /// The row's attribute cell, under ``rawValue``: `null` for pushes registered without it, and for orphans.
    /// A push's own row under `platform` is the `unknown` one, where what no platform can claim is counted.
    func cell(_ attributes: SendAttributes?) -> ReportValue {
        switch self {
        case .priority: .optionalInteger(attributes?.priority.map(Int64.init))
        case .pushType: .text(attributes?.pushType)
        case .platform: .text(Self.unknownPlatform)
        }
    }

    /// Orders rows of one campaign: by value (priority numerically), pushes without the attribute last.
    static func precedes(_ lhs: ReportValue?, _ rhs: ReportValue?) -> Bool {
        switch (lhs, rhs) {
        case (.optionalInteger(let a?), .optionalInteger(let b?)): a < b
        case (.text(let a?), .text(let b?)): a < b
        case (.optionalInteger(.some), _), (.text(.some), _): true
        default: false
        }
    }
}

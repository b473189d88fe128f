/// An APNs send attribute a campaigns report can split its rows by (`?by=priority`, `--by push_type`).
public enum ReportGrouping: String, Sendable, Hashable, CaseIterable {
    case priority
    case pushType = "push_type"

    /// The row's attribute cell, under ``rawValue``: `null` for pushes registered without it, and for orphans.
    func cell(_ attributes: SendAttributes?) -> ReportValue {
        switch self {
        case .priority: .optionalInteger(attributes?.priority.map(Int64.init))
        case .pushType: .text(attributes?.pushType)
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

/// What a session or conversion is credited to.
public enum Attribution: Sendable, Hashable {
    /// No push explains it.
    case unattributed
    /// The device tapped this push shortly before (the direct window for sessions, the conversion window for
    /// conversions).
    case direct(pushID: String)
    /// This push was displayed on the device within the influence window before it, and no tap explains it.
    case influenced(pushID: String)

    /// The stored code: 0 unattributed, 1 direct, 2 influenced (the `attribution` column of `events`).
    public var code: Int {
        switch self {
        case .unattributed: 0
        case .direct: 1
        case .influenced: 2
        }
    }

    /// The credited push, if any (the `attributed_push` column).
    public var pushID: String? {
        switch self {
        case .unattributed: nil
        case .direct(let pushID), .influenced(let pushID): pushID
        }
    }

    /// The attribution a stored code and push name; `nil` for a code no version wrote (or `NULL`).
    public init?(code: Int?, pushID: String?) {
        switch (code, pushID) {
        case (0, _): self = .unattributed
        case (1, let push?): self = .direct(pushID: push)
        case (2, let push?): self = .influenced(pushID: push)
        default: return nil
        }
    }
}

/// A row of the outcome rollups: which kind of outcome, credited how. The stored codes are part of the
/// rulebook: both engines and the ledger use them.
public enum OutcomeMeasure: Int, Sendable, Hashable, CaseIterable {
    case directOpen = 1
    case influencedOpen = 2
    case unattributedSession = 3
    case directConversion = 4
    case influencedConversion = 5
    case unattributedConversion = 6

    /// The measure of a session (`.session`) or conversion (`.conversion`) credited `attribution`.
    public init(kind: EventKind, attribution: Attribution) {
        let conversion = kind == .conversion
        switch attribution {
        case .direct: self = conversion ? .directConversion : .directOpen
        case .influenced: self = conversion ? .influencedConversion : .influencedOpen
        case .unattributed: self = conversion ? .unattributedConversion : .unattributedSession
        }
    }
}

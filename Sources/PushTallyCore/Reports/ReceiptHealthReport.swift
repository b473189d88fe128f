/// Which version a receipt-health report groups by: the app's, the OS's, or the platform the receipt names
/// (`ios`, `android`, `web`, or any other value as sent).
public enum VersionDimension: Int, Sendable, Hashable, CaseIterable {
    case appVersion = 0
    case osVersion = 1
    case platform = 2

    /// The query and CLI name: `app_version`, `os_version` or `platform`.
    public var name: String {
        switch self {
        case .appVersion: "app_version"
        case .osVersion: "os_version"
        case .platform: "platform"
        }
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// Receipts or actions of one kind from one version, over the pushes a report covers.
public struct VersionCount: Sendable, Hashable {
    /// `""` when the client did not say.
    public var version: String
    public var kind: EventKind
    public var action: String
    public var count: EventCount

    public init(version: String, kind: EventKind, action: String, count: EventCount) {
        self.version = version
        self.kind = kind
        self.action = action
        self.count = count
    }
}

/// Receipt health: per app (or OS) version, its share of display receipts against its share of opens.
/// Opens come from the app itself, so a version with opens but few receipts has an extension that is
/// broken or not posting: such a version is flagged. Events that name no version are a row of their own
/// (`unknown`) with no shares and never a flag: they say nothing about any one release, and counting them in
/// the totals would make every release's share look smaller than it is. Each version also shows its displays'
/// media outcomes and extension time, so a release whose media times out stands out too.
public enum ReceiptHealthReport {
    /// A version is flagged when its share of receipts is under half its share of opens.
    public static let flagRatio = 0.5

    /// The table of `counts`, each version with its unique displays' media outcomes and extension times from
    /// `media` (keyed as `counts` are, `""` for displays that named no version).
    public static func table(
        _ counts: [VersionCount], media: [String: MediaOutcomes] = [:], dimension: VersionDimension
    ) -> ReportTable {
        var receipts: [String: Int64] = [:]
        var opens: [String: Int64] = [:]
        for count in counts {
            if count.kind == .display {
                receipts[count.version, default: 0] += count.count.unique
            } else if count.kind == .action, count.action == StandardAction.open {
                opens[count.version, default: 0] += count.count.unique
            }
        }
        // Shares are taken among the events that name a version.
        let totalReceipts = receipts.filter { !$0.key.isEmpty }.values.reduce(0, +)
        let totalOpens = opens.filter { !$0.key.isEmpty }.values.reduce(0, +)
        // Known versions in order, "unknown" (clients that sent none) last.
        let versions = Set(receipts.keys).union(opens.keys).union(media.keys)
            .sorted { a, b in a.isEmpty != b.isEmpty ? !a.isEmpty : a < b }
        let columns = { (version: String) -> [(String, ReportValue)] in
            let known = !version.isEmpty
            let receiptShare = known ? Funnel.ratio(receipts[version] ?? 0, totalReceipts) : nil
            let openShare = known ? Funnel.ratio(opens[version] ?? 0, totalOpens) : nil
            let flagged = known && (opens[version] ?? 0) > 0 && (receiptShare ?? 0) < (openShare ?? 0) * flagRatio
            return [
                ("version", .text(known ? version : "unknown")),
                ("receipts", .integer(receipts[version] ?? 0)),
                ("opens", .integer(opens[version] ?? 0)),
                ("receipt_share", .rate(receiptShare)),
                ("open_share", .rate(openShare)),
                ("flagged", .flag(flagged)),
            ] + (media[version] ?? MediaOutcomes()).columns
        }
        return ReportTable(
            name: "versions", rows: versions.map(columns), template: columns(""),
            header: [("dimension", .text(dimension.name))])
    }
}

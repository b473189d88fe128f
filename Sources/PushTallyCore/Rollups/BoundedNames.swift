/// What an anonymous client names that a rollup keys a column or a row by: custom action ids become report
/// columns (`action:<id>`), platforms and app and OS versions become rows (`campaigns?by=platform`, the versions
/// report) and rollup keys. Ingest needs no token, so each app admits a bounded number of each (``NameBounds``);
/// the names past the bound count as ``ActionIDs/overflow`` (`other`).
///
/// The raw events keep every name as it was sent and only the rollups fold: the raw table stays the truth a
/// report is recounted from (the recount tests compare reports with raw events, so folding at ingest would
/// make them compare a fold with itself), nothing a client sent is lost, and a rebuild after a bound is
/// raised gives newly admitted names their own rows. Every counting path (ingest, import, prune into the
/// ledger, rebuild) folds through ``NameFold`` with the durable admitted set, so they all agree.
package enum BoundedField: Int, Hashable, Sendable, CaseIterable {
    /// The first three are ``VersionDimension``'s raw values, as `dimension_values.dimension` stores them;
    /// custom action ids live in `action_ids`, which reads tag with ``action``'s.
    case appVersion = 0, osVersion = 1, platform = 2, action = 3

    /// The platforms every app has rows for without taking a slot: what the clients and FCM send.
    package static let standardPlatforms: Set<String> = ["ios", "android", "web"]

    /// Whether `value` takes one of its app's slots of this field: ``ActionIDs/overflow`` never does, nor do
    /// the standard platforms; custom action ids are told apart by ``ActionIDs/isCustom(kind:action:)``.
    @inline(__always)
    package func takesSlot(_ value: String) -> Bool {
        switch self {
        case .platform: !Self.standardPlatforms.contains(value) && value != ActionIDs.overflow
        case .appVersion, .osVersion, .action: value != ActionIDs.overflow
        }
    }

    /// The name settings and logs call it by: the version dimension's, or `action`.
    package var name: String { VersionDimension(rawValue: rawValue)?.name ?? "action" }
}

/// How many names of each field an app admits.
public struct NameBounds: Sendable, Hashable {
    /// Custom action ids (`--max-action-ids`).
    public var actions: Int
    /// Platforms besides `ios`, `android` and `web` (`--max-platforms`).
    public var platforms: Int
    /// App versions, and apart from them OS versions (`--max-versions`).
    public var versions: Int

    /// A small app's custom buttons fit 64; a platform list past 16 is noise; 1,000 versions is a weekly
    /// release for nineteen years.
    public init(actions: Int = ActionIDs.defaultBound, platforms: Int = 16, versions: Int = 1_000) {
        self.actions = actions
        self.platforms = platforms
        self.versions = versions
    }

    package subscript(field: BoundedField) -> Int {
        switch field {
        case .action: actions
        case .platform: platforms
        case .appVersion, .osVersion: versions
        }
    }
}

package enum BoundedNames {
    /// A push and a name that takes a slot, compared byte for byte as the databases compare them (see
    /// ``ExactText``).
    package struct Pair: Hashable, Sendable {
        package var pushID: String
        package var field: BoundedField
        package var value: String

        package init(pushID: String, field: BoundedField, value: String) {
            self.pushID = pushID
            self.field = field
            self.value = value
        }

        package static func == (a: Pair, b: Pair) -> Bool {
            a.field == b.field && a.pushID.isExactly(b.pushID) && a.value.isExactly(b.value)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(field)
            hasher.combine(exactly: pushID)
            hasher.combine(exactly: value)
        }
    }

    /// Collects the distinct pairs of events in order of first appearance: admission follows arrival order,
    /// so the first names an app sends are the ones it keeps.
    package struct Collector {
        package private(set) var pairs: [Pair] = []
        private var seen = Set<Pair>()
        /// The last pair of each field, by raw value.
        private var last: [Pair?] = Array(repeating: nil, count: BoundedField.allCases.count)

        package init() {}

        /// The pairs of one event; only events that name a push are counted by push, so only theirs.
        @inline(__always)
        package mutating func add(
            pushID: String, kind: EventKind, action: String, appVersion: String?, osVersion: String?, platform: String?
        ) {
            guard kind.namesPush else { return }
            if ActionIDs.isCustom(kind: kind, action: action) { add(Pair(pushID: pushID, field: .action, value: action)) }
            if let appVersion, BoundedField.appVersion.takesSlot(appVersion) {
                add(Pair(pushID: pushID, field: .appVersion, value: appVersion))
            }
            if let osVersion, BoundedField.osVersion.takesSlot(osVersion) {
                add(Pair(pushID: pushID, field: .osVersion, value: osVersion))
            }
            if let platform, BoundedField.platform.takesSlot(platform) {
                add(Pair(pushID: pushID, field: .platform, value: platform))
            }
        }

        @inline(__always)
        private mutating func add(_ pair: Pair) {
            // A batch's events mostly repeat their neighbour's names: one comparison instead of a hash.
            if let last = last[pair.field.rawValue], last == pair { return }
            last[pair.field.rawValue] = pair
            if seen.insert(pair).inserted { pairs.append(pair) }
        }
    }

    /// The pairs of stored events.
    package static func pairs(_ events: some Sequence<StoredEvent>) -> [Pair] {
        var collector = Collector()
        for event in events { collector.add(event) }
        return collector.pairs
    }

    /// The pairs of a commit's events. Concrete, so it is specialized here: the writers call it once per
    /// commit from other modules, where a generic call runs unspecialized, with a metadata lookup per event.
    package static func pairs(_ events: [StoredEvent]) -> [Pair] {
        var collector = Collector()
        // By index: iterating would copy each event out of the array.
        for index in events.indices { collector.add(events[index]) }
        return collector.pairs
    }
}

extension BoundedNames.Collector {
    @inline(__always)
    package mutating func add(_ event: StoredEvent) {
        add(
            pushID: event.pushID, kind: event.kind, action: event.action, appVersion: event.appVersion,
            osVersion: event.osVersion, platform: event.platform)
    }
}

/// The durable admitted sets, alike on both engines: a row per app (`''` for pushes without one) and admitted
/// name. Rows are only ever added, so a name once a column or a row stays one.
package enum AdmittedNameTables {
    /// Custom action ids.
    package static let createActionIDs = """
        CREATE TABLE action_ids (app TEXT NOT NULL, action TEXT NOT NULL, PRIMARY KEY (app, action))
        """
    /// App versions, OS versions and platforms, by ``BoundedField``'s raw value.
    package static let createDimensionValues = """
        CREATE TABLE dimension_values (
            app TEXT NOT NULL, dimension INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (app, dimension, value))
        """
    /// Every admitted name of the apps a read names, tagged by field: `app, field, value`. `apps` is the
    /// engine's condition on `app` (`app = ?`, `app = ANY($1)`).
    package static func read(apps condition: String) -> String {
        """
        SELECT app, \(BoundedField.action.rawValue), action FROM action_ids WHERE \(condition) \
        UNION ALL SELECT app, dimension, value FROM dimension_values WHERE \(condition)
        """
    }
}

import Foundation
import Logging
import Metrics

/// Custom action ids become report columns (`action:<id>`), JSON keys and chart series, and any anonymous
/// client can send new ones, so each app admits a bounded number of them (``StoreConfiguration/maxActionIDs``);
/// the ids past the bound count under ``overflow``.
///
/// The raw events keep every action as it was sent and only the rollups fold: the raw table stays the truth a
/// report is recounted from (the recount tests compare reports with raw events, so folding at ingest would
/// make them compare a fold with itself), nothing a client sent is lost, and a rebuild after the bound is
/// raised gives newly admitted ids their own columns. Every counting path (ingest, import, prune into the
/// ledger, rebuild) folds through ``ActionFold`` with the durable admitted set, so they all agree.
public enum ActionIDs {
    /// The column every id past an app's bound counts under. A client sending `other` itself counts there
    /// too, without taking a slot.
    public static let overflow = "other"
    /// Custom ids admitted per app unless `--max-action-ids` says otherwise.
    public static let defaultBound = 64

    /// Whether an action takes one of its app's slots: `open`, `dismiss` and ``overflow`` are always columns.
    @inline(__always)
    package static func isCustom(kind: EventKind, action: String) -> Bool {
        kind == .action && action != StandardAction.open && action != StandardAction.dismiss && action != overflow
    }

    /// The distinct custom (push, action) pairs of `events`, in order of first appearance: admission follows
    /// arrival order, so the first ids an app sends are the ones it keeps.
    package static func customPairs(_ events: some Sequence<(pushID: String, kind: EventKind, action: String)>) -> [Pair] {
        var seen = Set<Pair>()
        var pairs: [Pair] = []
        for event in events where isCustom(kind: event.kind, action: event.action) {
            let pair = Pair(pushID: event.pushID, action: event.action)
            if seen.insert(pair).inserted { pairs.append(pair) }
        }
        return pairs
    }

    /// The custom pairs of stored events.
    package static func pairs(_ events: some Sequence<StoredEvent>) -> [Pair] {
        customPairs(events.lazy.map { (pushID: $0.pushID, kind: $0.kind, action: $0.action) })
    }

    /// The custom pairs of a commit's events. Concrete, so it is specialized here: the writers call it once per
    /// commit from other modules, where a generic call runs unspecialized, with a metadata lookup per event.
    package static func pairs(_ events: [StoredEvent]) -> [Pair] {
        customPairs(events.lazy.map { (pushID: $0.pushID, kind: $0.kind, action: $0.action) })
    }

    /// A push and a custom id, compared byte for byte as the databases compare them (see ``ExactText``).
    package struct Pair: Hashable, Sendable {
        package var pushID: String
        package var action: String

        package static func == (a: Pair, b: Pair) -> Bool {
            a.pushID.isExactly(b.pushID) && a.action.isExactly(b.action)
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(exactly: pushID)
            hasher.combine(exactly: action)
        }
    }
}

/// How a set of events' actions count in the rollups: each push's app (`""` for none or unregistered) and the
/// ids each of those apps admitted. Push ids, apps and ids compare byte for byte, as the `action_ids` and
/// `pushes` tables compare them: two spellings of one name a database kept apart (``ExactText``) are two keys
/// here too.
package struct ActionFold: Sendable {
    package var apps: [ExactText: String]
    package var admitted: [ExactText: Set<ExactText>]

    package init(apps: [ExactText: String] = [:], admitted: [ExactText: Set<ExactText>] = [:]) {
        self.apps = apps
        self.admitted = admitted
    }

    /// The app of `pushID` (`""` for none or unregistered).
    package func app(of pushID: String) -> String { apps[ExactText(pushID)] ?? "" }

    /// The action a rollup counts `action` of `pushID` under.
    @inline(__always)
    package func folded(pushID: String, kind: EventKind, action: String) -> String {
        guard ActionIDs.isCustom(kind: kind, action: action) else { return action }
        return admitted[ExactText(app(of: pushID))]?.contains(ExactText(action)) == true ? action : ActionIDs.overflow
    }
}

/// A store's memory of the admitted ids and of registered pushes' apps, so a commit whose ids are all known
/// (or whose app is full) costs no database work; what it lacks an engine reads or admits, then teaches it.
///
/// The database's `action_ids` table is the truth, shared by every collector: this only ever lags it, and
/// a lagging copy errs towards asking the database (an app is taken as full only when the copy already holds
/// the bound, which the table can only exceed never undercut).
package final class ActionIDBook: @unchecked Sendable {
    package let bound: Int
    private let lock = NSLock()
    private var admitted: [ExactText: Set<ExactText>] = [:]
    /// Apps of registered pushes only: an unregistered push may be registered with an app by any collector.
    private var apps: [ExactText: String] = [:]
    private var announced: Set<ExactText> = []
    private let logger: Logger
    /// Pushes whose apps are remembered at most; past it the memory starts again.
    private static let rememberedPushes = 100_000

    package init(bound: Int, logger: Logger = Logger(label: "pushtally.store")) {
        self.bound = bound
        self.logger = logger
    }

    /// The remembered apps of `pushIDs`, and those it knows nothing of (each once).
    package func apps(of pushIDs: some Sequence<String>) -> (known: [ExactText: String], unknown: [String]) {
        lock.withLock {
            var known: [ExactText: String] = [:]
            var unknown: [String] = []
            var asked = Set<ExactText>()
            for pushID in pushIDs {
                let key = ExactText(pushID)
                guard asked.insert(key).inserted else { continue }
                if let app = apps[key] { known[key] = app } else { unknown.append(pushID) }
            }
            return (known, unknown)
        }
    }

    /// Remembers the apps of registered pushes (`""`: registered without one).
    package func rememberApps(_ registered: [ExactText: String]) {
        lock.withLock {
            if apps.count + registered.count > Self.rememberedPushes { apps.removeAll(keepingCapacity: true) }
            apps.merge(registered) { _, new in new }
        }
    }

    /// The apps of `pairs`' pushes (their apps being `apps`, absent: none) whose admitted ids were never read,
    /// each once, in the order they come.
    package func unread(_ pairs: [ActionIDs.Pair], apps: [ExactText: String]) -> [String] {
        lock.withLock {
            var seen = Set<ExactText>()
            return pairs.compactMap { pair in
                let app = ExactText(apps[ExactText(pair.pushID)] ?? "")
                return admitted[app] == nil && seen.insert(app).inserted ? app.text : nil
            }
        }
    }

    /// The ids `app` admitted, as just read from the database.
    package func learn(app: String, admitted ids: some Sequence<String>) {
        lock.withLock { admitted[ExactText(app), default: []].formUnion(ids.lazy.map(ExactText.init)) }
    }

    /// New ids per app, in arrival order, of the apps that may still have room.
    package func wanted(_ pairs: [ActionIDs.Pair], apps: [ExactText: String]) -> [(app: String, actions: [String])] {
        lock.withLock {
            var order: [ExactText] = []
            var wanted: [ExactText: [String]] = [:]
            var seen = Set<ActionIDs.Pair>()
            for pair in pairs {
                let app = ExactText(apps[ExactText(pair.pushID)] ?? "")
                let known = admitted[app] ?? []
                guard known.count < bound, !known.contains(ExactText(pair.action)),
                    seen.insert(ActionIDs.Pair(pushID: app.text, action: pair.action)).inserted
                else { continue }
                if wanted[app] == nil { order.append(app) }
                wanted[app, default: []].append(pair.action)
            }
            return order.map { ($0.text, wanted[$0]!) }
        }
    }

    /// The fold of `pairs`' pushes, their apps being `apps` (absent: none).
    package func fold(_ pairs: [ActionIDs.Pair], apps: [ExactText: String]) -> ActionFold {
        lock.withLock {
            var fold = ActionFold(apps: apps)
            for pair in pairs {
                let app = ExactText(apps[ExactText(pair.pushID)] ?? "")
                if fold.admitted[app] == nil { fold.admitted[app] = admitted[app] ?? [] }
            }
            return fold
        }
    }

    /// Forgets every admitted id, after a commit that admitted some failed: the next commit reads them again.
    package func forgetAdmitted() {
        lock.withLock { admitted.removeAll() }
    }

    /// ``recordOverflow(_:fold:)`` for a commit's stored events; concrete for the reason the stored events' `pairs` is.
    package func recordOverflow(_ events: [StoredEvent], fold: ActionFold) {
        recordOverflow(events.lazy.map { (pushID: $0.pushID, kind: $0.kind, action: $0.action) }, fold: fold)
    }

    /// ``recordOverflow(_:fold:)`` for a commit's incoming batches; concrete, as above.
    package func recordOverflow(_ batches: [[IncomingEvent]], fold: ActionFold) {
        recordOverflow(batches.joined().lazy.map { (pushID: $0.pushID, kind: $0.kind, action: $0.action) }, fold: fold)
    }

    /// Counts the committed events that fell into ``ActionIDs/overflow`` (`pushtally_action_ids_overflow_total`),
    /// and says once per app and process that its bound was reached.
    package func recordOverflow(_ events: some Sequence<(pushID: String, kind: EventKind, action: String)>, fold: ActionFold) {
        var overflowed = 0
        var apps: Set<ExactText> = []
        for event in events where ActionIDs.isCustom(kind: event.kind, action: event.action) {
            if fold.folded(pushID: event.pushID, kind: event.kind, action: event.action) == ActionIDs.overflow {
                overflowed += 1
                apps.insert(ExactText(fold.app(of: event.pushID)))
            }
        }
        guard overflowed > 0 else { return }
        Counter(label: "pushtally_action_ids_overflow_total").increment(by: overflowed)
        let first = lock.withLock { apps.filter { announced.insert($0).inserted }.map(\.text).sorted() }
        for app in first {
            logger.warning(
                "custom action ids past the bound count as \(ActionIDs.overflow)",
                metadata: ["app": "\(app.isEmpty ? "(none)" : app)", "max_action_ids": "\(bound)"])
        }
    }
}

/// The durable admitted set, alike on both engines: a row per app (`''` for pushes without one) and
/// admitted id. Rows are only ever added, so an id once a column stays one.
package enum ActionIDTable {
    package static let create = """
        CREATE TABLE action_ids (app TEXT NOT NULL, action TEXT NOT NULL, PRIMARY KEY (app, action))
        """
}

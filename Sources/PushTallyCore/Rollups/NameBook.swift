import Foundation
import Logging
import Metrics

/// A store's memory of the admitted names (``BoundedField``) and of registered pushes' apps, so a commit whose
/// names are all known (or whose app is full) costs no database work; what it lacks an engine reads or
/// admits, then teaches it.
///
/// The database's `action_ids` and `dimension_values` tables are the truth, shared by every collector: this only
/// ever lags them, and a lagging copy errs towards asking the database (an app is taken as full only when the
/// copy already holds the bound, which the tables can only exceed, never undercut).
package final class NameBook: @unchecked Sendable {
    package let bounds: NameBounds
    private let lock = NSLock()
    /// Every app whose names were read, with them.
    private var admitted: [ExactText: AdmittedNames] = [:]
    /// Apps of registered pushes only: an unregistered push may be registered with an app by any collector.
    private var apps: [ExactText: String] = [:]
    private var announced: Set<Slot> = []
    private let logger: Logger
    /// Pushes whose apps are remembered at most; past it the memory starts again.
    private static let rememberedPushes = 100_000

    /// One app's names of one field.
    package struct Slot: Hashable, Sendable {
        package var app: ExactText
        package var field: BoundedField
    }

    package init(bounds: NameBounds, logger: Logger = Logger(label: "pushtally.store")) {
        self.bounds = bounds
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

    /// The apps of `pairs`' pushes (their apps being `apps`, absent: none) whose admitted names were never
    /// read, each once, in the order they come.
    package func unread(_ pairs: [BoundedNames.Pair], apps: [ExactText: String]) -> [String] {
        lock.withLock {
            var seen = Set<ExactText>()
            return pairs.compactMap { pair in
                let app = ExactText(apps[ExactText(pair.pushID)] ?? "")
                return admitted[app] == nil && seen.insert(app).inserted ? app.text : nil
            }
        }
    }

    /// Every name `app` admitted, of every field, as just read from the database.
    package func learn(app: String, admitted names: AdmittedNames) {
        lock.withLock { admitted[ExactText(app), default: AdmittedNames()].formUnion(names) }
    }

    /// New names per app and field, in arrival order, of the slots that may still have room.
    package func wanted(_ pairs: [BoundedNames.Pair], apps: [ExactText: String]) -> [(app: String, field: BoundedField, values: [String])] {
        lock.withLock {
            var order: [Slot] = []
            var wanted: [Slot: [String]] = [:]
            var seen = Set<BoundedNames.Pair>()
            for pair in pairs {
                let slot = Slot(app: ExactText(apps[ExactText(pair.pushID)] ?? ""), field: pair.field)
                let known = admitted[slot.app] ?? AdmittedNames()
                guard known.count(of: pair.field) < bounds[pair.field], !known.contains(pair.value, as: pair.field),
                    seen.insert(BoundedNames.Pair(pushID: slot.app.text, field: pair.field, value: pair.value)).inserted
                else { continue }
                if wanted[slot] == nil { order.append(slot) }
                wanted[slot, default: []].append(pair.value)
            }
            return order.map { ($0.app.text, $0.field, wanted[$0]!) }
        }
    }

    /// The fold of `pairs`' pushes, their apps being `apps` (absent: none).
    package func fold(_ pairs: [BoundedNames.Pair], apps: [ExactText: String]) -> NameFold {
        lock.withLock {
            var fold = NameFold(apps: apps, overflows: false)
            for pair in pairs {
                let app = ExactText(apps[ExactText(pair.pushID)] ?? "")
                if fold.admitted[app] == nil { fold.admitted[app] = admitted[app] ?? AdmittedNames() }
                if !fold.overflows, fold.admitted[app]?.contains(pair.value, as: pair.field) != true { fold.overflows = true }
            }
            return fold
        }
    }

    /// Forgets every admitted name, after a commit that admitted some failed: the next commit reads them again.
    package func forgetAdmitted() {
        lock.withLock { admitted.removeAll() }
    }

    /// ``recordOverflow(_:fold:)`` for a commit's stored events.
    package func recordOverflow(_ events: [StoredEvent], fold: NameFold) {
        guard fold.overflows else { return }
        var tally = OverflowTally()
        for event in events {
            tally.add(
                pushID: event.pushID, kind: event.kind, action: event.action, appVersion: event.appVersion,
                osVersion: event.osVersion, platform: event.platform, fold: fold)
        }
        record(tally)
    }

    /// ``recordOverflow(_:fold:)`` for a commit's incoming batches.
    package func recordOverflow(_ batches: [[IncomingEvent]], fold: NameFold) {
        guard fold.overflows else { return }
        var tally = OverflowTally()
        for event in batches.joined() {
            tally.add(
                pushID: event.pushID, kind: event.kind, action: event.action, appVersion: event.appVersion,
                osVersion: event.osVersion, platform: event.platform, fold: fold)
        }
        record(tally)
    }

    /// Counts the committed events whose names fell into ``ActionIDs/overflow`` (custom action ids in
    /// `pushtally_action_ids_overflow_total`, the others in `pushtally_dimension_values_overflow_total` by
    /// dimension), and says once per app, field and process that its bound was reached.
    private func record(_ tally: OverflowTally) {
        guard !tally.events.isEmpty else { return }
        for (field, count) in tally.events {
            if field == .action {
                Counter(label: "pushtally_action_ids_overflow_total").increment(by: count)
            } else {
                Counter(label: "pushtally_dimension_values_overflow_total", dimensions: [("dimension", field.name)])
                    .increment(by: count)
            }
        }
        let first = lock.withLock { tally.slots.filter { announced.insert($0).inserted } }
        for slot in first.sorted(by: { ($0.app.text, $0.field.rawValue) < ($1.app.text, $1.field.rawValue) }) {
            logger.warning(
                "\(slot.field.name) values past the bound count as \(ActionIDs.overflow)",
                metadata: ["app": "\(slot.app.text.isEmpty ? "(none)" : slot.app.text)", "bound": "\(bounds[slot.field])"])
        }
    }
}

/// The events of a commit whose names folded into ``ActionIDs/overflow``, by field, and the slots they overflowed.
private struct OverflowTally {
    var events: [BoundedField: Int] = [:]
    var slots: Set<NameBook.Slot> = []

    mutating func add(
        pushID: String, kind: EventKind, action: String, appVersion: String?, osVersion: String?, platform: String?,
        fold: NameFold
    ) {
        guard kind.namesPush else { return }
        let folded = fold.folded(
            pushID: pushID, kind: kind, action: action, appVersion: appVersion, osVersion: osVersion, platform: platform)
        if ActionIDs.isCustom(kind: kind, action: action), folded.action != action { count(.action, pushID, fold) }
        if folded.appVersion != appVersion { count(.appVersion, pushID, fold) }
        if folded.osVersion != osVersion { count(.osVersion, pushID, fold) }
        if folded.platform != platform { count(.platform, pushID, fold) }
    }

    private mutating func count(_ field: BoundedField, _ pushID: String, _ fold: NameFold) {
        events[field, default: 0] += 1
        slots.insert(NameBook.Slot(app: ExactText(fold.app(of: pushID)), field: field))
    }
}

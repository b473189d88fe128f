/// The names one app admitted, per ``BoundedField``.
package struct AdmittedNames: Sendable {
    private var sets: [Set<ExactText>] = Array(repeating: [], count: BoundedField.allCases.count)

    package init() {}

    package init(_ names: some Sequence<(field: BoundedField, value: String)>) {
        for name in names { insert(name.value, as: name.field) }
    }

    @inline(__always)
    package func contains(_ value: String, as field: BoundedField) -> Bool {
        sets[field.rawValue].contains(ExactText(value))
    }

    package func count(of field: BoundedField) -> Int { sets[field.rawValue].count }

    package mutating func insert(_ value: String, as field: BoundedField) {
        sets[field.rawValue].insert(ExactText(value))
    }

    package mutating func formUnion(_ other: AdmittedNames) {
        for index in sets.indices { sets[index].formUnion(other.sets[index]) }
    }
}

/// How a set of events' names count in the rollups: each push's app (`""` for none or unregistered) and the
/// names each of those apps admitted. Push ids, apps and names compare byte for byte, as the `action_ids`,
/// `dimension_values` and `pushes` tables compare them: two spellings of one name a database kept apart
/// (``ExactText``) are two keys here too.
package struct NameFold: Sendable {
    package var apps: [ExactText: String]
    package var admitted: [ExactText: AdmittedNames]
    /// Whether a name of the events it was made for folds into ``ActionIDs/overflow``: when not, a commit's
    /// overflow count has nothing to look at.
    package var overflows: Bool

    package init(apps: [ExactText: String] = [:], admitted: [ExactText: AdmittedNames] = [:], overflows: Bool = true) {
        self.apps = apps
        self.admitted = admitted
        self.overflows = overflows
    }

    /// The app of `pushID` (`""` for none or unregistered).
    package func app(of pushID: String) -> String { apps[ExactText(pushID)] ?? "" }

    /// What `pushID`'s app admitted (nothing when the fold never read it: every name that takes a slot folds).
    @inline(__always)
    package func names(of pushID: String) -> AdmittedNames? { admitted[ExactText(app(of: pushID))] }

    /// The name a rollup counts `value` of `field` under, for an event of a push whose app admitted `names`.
    @inline(__always)
    package static func folded(_ value: String?, as field: BoundedField, names: AdmittedNames?) -> String? {
        guard let value, field.takesSlot(value) else { return value }
        return names?.contains(value, as: field) == true ? value : ActionIDs.overflow
    }

    /// The names of one event as its rollups count them.
    @inline(__always)
    package func folded(
        pushID: String, kind: EventKind, action: String, appVersion: String?, osVersion: String?, platform: String?
    ) -> (action: String, appVersion: String?, osVersion: String?, platform: String?) {
        let isCustom = ActionIDs.isCustom(kind: kind, action: action)
        // No lookup at all for an event whose names take no slot (a plain receipt, an iOS or Android one).
        guard isCustom || appVersion != nil || osVersion != nil
            || (platform.map { BoundedField.platform.takesSlot($0) } ?? false)
        else { return (action, appVersion, osVersion, platform) }
        let names = names(of: pushID)
        return (
            isCustom ? (names?.contains(action, as: .action) == true ? action : ActionIDs.overflow) : action,
            Self.folded(appVersion, as: .appVersion, names: names),
            Self.folded(osVersion, as: .osVersion, names: names),
            Self.folded(platform, as: .platform, names: names)
        )
    }
}

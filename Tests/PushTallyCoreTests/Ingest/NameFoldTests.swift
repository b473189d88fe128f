import Testing

@testable import PushTallyCore

/// Names fold byte for byte, as the `action_ids`, `dimension_values` and `pushes` tables compare them: two
/// spellings of one app (or of one name) that a database kept apart are two keys, never one by Swift's
/// canonical equality. Each field has its own slots.
@Suite struct NameFoldTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    /// The action a rollup counts `action` of `pushID` under.
    static func action(_ fold: NameFold, _ pushID: String, _ action: String) -> String {
        fold.folded(pushID: pushID, kind: .action, action: action, appVersion: nil, osVersion: nil, platform: nil).action
    }

    static func event(_ pushID: String, action: String = "", kind: EventKind = .display, appVersion: String? = nil, osVersion: String? = nil, platform: String? = nil) -> StoredEvent {
        StoredEvent(
            IncomingEvent(pushID: pushID, kind: kind, action: action, platform: platform, appVersion: appVersion, osVersion: osVersion),
            receivedAt: 0)
    }

    @Test func twoSpellingsOfAnIDAreTwoPairs() {
        let events = [Self.composed, Self.decomposed, Self.composed].map { Self.event("p", action: $0, kind: .action) }
        #expect(BoundedNames.pairs(events).map { Array($0.value.utf8) } == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)])
    }

    @Test func eachSpellingOfAnAppHasItsOwnAdmittedIDs() {
        let book = NameBook(bounds: NameBounds(actions: 1))
        book.learn(app: Self.composed, admitted: AdmittedNames([(.action, "buy")]))
        let apps = [ExactText("a"): Self.composed, ExactText("b"): Self.decomposed]
        let pairs = [BoundedNames.Pair(pushID: "a", field: .action, value: "buy"), BoundedNames.Pair(pushID: "b", field: .action, value: "buy")]
        // The composed app is full; the decomposed one was never read and still has its slot.
        #expect(book.unread(pairs, apps: apps).map { Array($0.utf8) } == [Array(Self.decomposed.utf8)])
        #expect(book.wanted(pairs, apps: apps).map { Array($0.app.utf8) } == [Array(Self.decomposed.utf8)])
        let fold = book.fold(pairs, apps: apps)
        #expect(Self.action(fold, "a", "buy") == "buy")
        #expect(Self.action(fold, "b", "buy") == ActionIDs.overflow)
    }

    @Test func anIDAdmittedInOneSpellingDoesNotAdmitTheOther() {
        let fold = NameFold(admitted: [ExactText(""): AdmittedNames([(.action, Self.composed)])])
        #expect(Self.action(fold, "p", Self.composed) == Self.composed)
        #expect(Self.action(fold, "p", Self.decomposed) == ActionIDs.overflow)
    }

    @Test func standardPlatformsAndOtherTakeNoSlot() {
        let events = ["ios", "android", "web", "other", "tvos", "tvos"].map { Self.event("p", platform: $0) }
            + [Self.event("p", appVersion: "other", osVersion: "17.1")]
        let pairs = BoundedNames.pairs(events)
        #expect(pairs.map { "\($0.field.name)=\($0.value)" } == ["platform=tvos", "os_version=17.1"])
        // A fold that admitted nothing still keeps the standard platforms and `other` as they are.
        let fold = NameFold(admitted: [ExactText(""): AdmittedNames()])
        let ios = fold.folded(pushID: "p", kind: .display, action: "", appVersion: "other", osVersion: "17.1", platform: "ios")
        #expect(ios.platform == "ios" && ios.appVersion == "other" && ios.osVersion == ActionIDs.overflow)
        #expect(fold.folded(pushID: "p", kind: .display, action: "", appVersion: nil, osVersion: nil, platform: "tvos").platform == "other")
    }

    @Test func eachFieldOfAnAppHasItsOwnSlots() {
        let book = NameBook(bounds: NameBounds(actions: 1, platforms: 1, versions: 2))
        let events = [
            Self.event("p", appVersion: "1.0", osVersion: "1.0", platform: "tvos"),
            Self.event("p", appVersion: "2.0", osVersion: "2.0", platform: "watchos"),
            Self.event("p", appVersion: "3.0", osVersion: "2.0", platform: "tvos"),
        ]
        let pairs = BoundedNames.pairs(events)
        let wanted = book.wanted(pairs, apps: [:]).map { "\($0.field.name):\($0.values.joined(separator: ","))" }
        // Arrival order within each field; a version an app admitted as its app version is no OS version.
        #expect(wanted == ["app_version:1.0,2.0,3.0", "os_version:1.0,2.0", "platform:tvos,watchos"])
        book.learn(app: "", admitted: AdmittedNames([(.appVersion, "1.0"), (.appVersion, "2.0"), (.osVersion, "2.0"), (.platform, "tvos")]))
        #expect(book.wanted(pairs, apps: [:]).map(\.field) == [.osVersion])
        let fold = book.fold(pairs, apps: [:])
        let third = fold.folded(pushID: "p", kind: .display, action: "", appVersion: "3.0", osVersion: "1.0", platform: "watchos")
        #expect(third.appVersion == "other" && third.osVersion == "other" && third.platform == "other")
        let first = fold.folded(pushID: "p", kind: .display, action: "", appVersion: "1.0", osVersion: "2.0", platform: "tvos")
        #expect(first.appVersion == "1.0" && first.osVersion == "2.0" && first.platform == "tvos")
    }

    @Test func outcomesAdmitNothing() {
        let session = Self.event("", kind: .session, appVersion: "9.9", platform: "tvos")
        #expect(BoundedNames.pairs([session]).isEmpty)
    }
}

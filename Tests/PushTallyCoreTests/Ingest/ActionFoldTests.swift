import Testing

@testable import PushTallyCore

/// Custom action ids fold byte for byte, as the `action_ids` and `pushes` tables compare names: two spellings of
/// one app (or of one id) that a database kept apart are two keys, never one by Swift's canonical equality.
@Suite struct ActionFoldTests {
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    @Test func twoSpellingsOfAnIDAreTwoPairs() {
        let events = [Self.composed, Self.decomposed, Self.composed].map { (pushID: "p", kind: EventKind.action, action: $0) }
        #expect(ActionIDs.customPairs(events).map { Array($0.action.utf8) } == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)])
    }

    @Test func eachSpellingOfAnAppHasItsOwnAdmittedIDs() {
        let book = ActionIDBook(bound: 1)
        book.learn(app: Self.composed, admitted: ["buy"])
        let apps = [ExactText("a"): Self.composed, ExactText("b"): Self.decomposed]
        let pairs = [ActionIDs.Pair(pushID: "a", action: "buy"), ActionIDs.Pair(pushID: "b", action: "buy")]
        // The composed app is full; the decomposed one was never read and still has its slot.
        #expect(book.unread(pairs, apps: apps).map { Array($0.utf8) } == [Array(Self.decomposed.utf8)])
        #expect(book.wanted(pairs, apps: apps).map { Array($0.app.utf8) } == [Array(Self.decomposed.utf8)])
        let fold = book.fold(pairs, apps: apps)
        #expect(fold.folded(pushID: "a", kind: .action, action: "buy") == "buy")
        #expect(fold.folded(pushID: "b", kind: .action, action: "buy") == ActionIDs.overflow)
    }

    @Test func anIDAdmittedInOneSpellingDoesNotAdmitTheOther() {
        let fold = ActionFold(admitted: [ExactText(""): [ExactText(Self.composed)]])
        #expect(fold.folded(pushID: "p", kind: .action, action: Self.composed) == Self.composed)
        #expect(fold.folded(pushID: "p", kind: .action, action: Self.decomposed) == ActionIDs.overflow)
    }
}

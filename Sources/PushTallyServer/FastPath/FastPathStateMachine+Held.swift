/// Requests that waited: parts read while earlier requests were unanswered are held, then let go in order.
extension FastPathStateMachine {
    /// Starts letting held requests go, part by part (``releaseNextHeld()``); `false` while that is under way
    /// already, further up the stack, where it goes on.
    mutating func beginReleasingHeld() -> Bool {
        guard !isReleasingHeld else { return false }
        isReleasingHeld = true
        releasedAny = false
        return true
    }

    /// The next held part that may go now, and what to do with it; `nil` once none may.
    mutating func releaseNextHeld() -> PartAction? {
        guard let part = held.first, let action = process(part) else { return nil }
        held.removeFirst()
        releasedAny = true
        return action
    }

    /// Done letting held requests go: whether to tell the router a read cycle ended (it hands requests on then,
    /// and these came outside one), and whether to resume reading.
    mutating func endReleasingHeld() -> (readComplete: Bool, read: Bool) {
        isReleasingHeld = false
        let read =
            readPending && held.isEmpty && !isAwaitingContinue && unansweredWholeRequests < configuration.maxPipelined
        if read { readPending = false }
        return (releasedAny, read)
    }
}

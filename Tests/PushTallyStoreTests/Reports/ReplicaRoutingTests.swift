import Foundation
import PushTallyCore
import PushTallyStores
import PushTallyTestSupport
import Testing

/// Where ``ReportReadRouter`` sends a report, and when it stops trusting the replica, on a real PostgreSQL
/// database opened twice: as the primary, and as a replica (not a standby, so its lag is 0 and it is used).
@Suite struct ReplicaRoutingTests {
    /// A router over a fresh database whose replica the first sample found up to date.
    static func withRouter(_ body: (ReportReadRouter, any PushTallyStore) async throws -> Void) async throws {
        try await FreshStore.with(.postgres, name: "replica-routing") { fresh in
            let primary = try await fresh.open()
            defer { primary.closeInBackground() }
            let replica = try await StoreFactory.openReadReplica(fresh.location, fresh.options())
            defer { replica.closeInBackground() }
            let router = ReportReadRouter(primary: primary, replica: replica)
            let sampled = await router.sample()
            try #require(sampled?.reachable == true && sampled?.lagSeconds == 0, "\(String(describing: sampled))")
            try await body(router, primary)
        }
    }

    /// Each database a read went to, in order.
    final class Reads: @unchecked Sendable {
        // Guards `noted`: a read may run in another task than the test's.
        private let lock = NSLock()
        private var noted: [ReadSource] = []
        let replica: any ReportReader

        init(_ router: ReportReadRouter) { replica = router.replica! }

        var sources: [ReadSource] { lock.withLock { noted } }

        func note(_ reader: any ReportReader) {
            let source: ReadSource = (reader as AnyObject) === (replica as AnyObject) ? .replica : .primary
            lock.withLock { noted.append(source) }
        }
    }

    @Test func aTotalPastSixtyFourBitsIsAnsweredOnceAndLeavesTheReplicaInUse() async throws {
        try await Self.withRouter { router, store in
            // 9,300 pushes of 10^15 devices each, the most one push may have: their campaign adds up past 2^63.
            for start in stride(from: 0, to: 9_300, by: 1_000) {
                let pushes = (start..<min(9_300, start + 1_000)).map {
                    PushRegistration(pushID: "p\($0)", campaign: "big", sentAtMillis: 1_000, counts: SendCounts(sent: 1_000_000_000_000_000))
                }
                let outcomes = try await store.register(pushes)
                try #require(outcomes.allSatisfy { (try? $0.get()) != nil })
            }
            let reads = Reads(router)
            await #expect(throws: TotalOutOfRange.self) {
                try await router.read { reader in
                    reads.note(reader)
                    return try await reader.report(ReportRequest(.campaigns))
                }
            }
            #expect(reads.sources == [.replica], "the report's own error is its answer: not run again on the primary")
            #expect(router.replicaState?.reachable == true)
            #expect(router.currentSource.source == .replica)
        }
    }

    @Test func aReadWhoseCallerStopsWaitingLeavesTheReplicaInUse() async throws {
        try await Self.withRouter { router, _ in
            let reads = Reads(router)
            let (started, reading) = AsyncStream.makeStream(of: Void.self)
            let request = Task {
                try await router.read { reader in
                    reads.note(reader)
                    let names = try await reader.campaignNames(after: nil, limit: 10)
                    reading.yield()
                    // A read slower than its caller will wait: a request deadline or a client gone cancels it.
                    try await Task.sleep(for: .seconds(600))
                    return names
                }
            }
            for await _ in started { break }
            request.cancel()
            await #expect(throws: CancellationError.self) { try await request.value }
            #expect(reads.sources == [.replica])
            #expect(router.replicaState?.reachable == true)
        }
    }

    @Test func aReplicaThatFailsIsMarkedDownAndThePrimaryAnswers() async throws {
        try await FreshStore.with(.postgres, name: "replica-down") { fresh in
            let primary = try await fresh.open()
            defer { primary.closeInBackground() }
            let replica = try await StoreFactory.openReadReplica(fresh.location, fresh.options())
            let router = ReportReadRouter(primary: primary, replica: replica)
            try #require(await router.sample()?.reachable == true)
            // Its connections gone: every statement on it now fails as an unreachable database does.
            await replica.shutdown()
            let reads = Reads(router)
            let answer = try await router.read { reader in
                reads.note(reader)
                return try await reader.campaignNames(after: nil, limit: 10)
            }
            #expect(answer.source == .primary && answer.value == [])
            #expect(reads.sources == [.replica, .primary])
            #expect(router.replicaState?.reachable == false)
            #expect(router.currentSource.source == .primary)
        }
    }

    @Test func anErrorOfNeitherKindIsReadAgainFromThePrimaryWithoutMarkingTheReplicaDown() async throws {
        struct Unforeseen: Error {}
        try await Self.withRouter { router, _ in
            let reads = Reads(router)
            let answer = try await router.read { reader in
                reads.note(reader)
                if reads.sources == [.replica] { throw Unforeseen() }
                return try await reader.campaignNames(after: nil, limit: 10)
            }
            #expect(answer.source == .primary)
            #expect(reads.sources == [.replica, .primary])
            #expect(router.replicaState?.reachable == true)
        }
    }

    @Test(arguments: [
        (StoreError.unavailable(reason: "gone") as any Error, true),
        (StoreError.misconfigured("no schema"), true),
        (StoreError.databaseNewerThanCode(path: "x"), true),
        (TotalOutOfRange(field: "sent"), false),
        (FieldError("too_long", "long", field: "campaign"), false),
        (CancellationError(), false),
    ])
    func whichFailuresAreTheReplicas(_ error: any Error, _ isReplicas: Bool) {
        #expect(ReportReadRouter.isReplicaFailure(error) == isReplicas, "\(error)")
    }
}

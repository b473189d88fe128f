import Testing

@testable import PushTallyCore

/// Media outcomes and extension time as the rollups count them and reports show them.
struct MediaOutcomeTests {
    /// Every time a receipt may carry reads back within 10 % from its bucket, so every percentile does.
    @Test func everyExtensionTimeReadsBackWithinTenPercent() {
        for millis in Int64(0)...ExtensionTime.maximumMillis {
            let shown = ExtensionTimeHistogram.representative(ofBucket: ExtensionTimeHistogram.bucket(ofMillis: millis))
            #expect(abs(Double(shown - millis)) <= 0.1 * Double(millis), "\(millis) ms reads as \(shown)")
        }
        #expect(ExtensionTimeHistogram.columnNames.count == ExtensionTimeHistogram.upperBoundsMillis.count + 1)
        #expect(RollupTable.media.values.count == MediaRollupQuery.width)
    }

    /// Percentiles from the histogram against the exact nearest-rank percentile of the values.
    @Test func percentilesAreWithinTenPercentOfExact() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 1...300, using: &rng)).map { _ in
                Int64.random(in: 0...(Bool.random(using: &rng) ? 2_000 : 60_000), using: &rng)
            }
            var histogram = ExtensionTimeHistogram()
            for value in values { histogram.add(millis: value) }
            let sorted = values.sorted()
            for q in [0.5, 0.9] {
                let exact = sorted[max(Int((q * Double(sorted.count)).rounded(.up)), 1) - 1]
                let estimate = histogram.quantileMillis(q)!
                #expect(abs(Double(estimate - exact)) <= 0.1 * Double(exact), "q \(q): \(estimate) for \(exact) of \(sorted)")
            }
        }
        #expect(ExtensionTimeHistogram().quantileMillis(0.5) == nil)
    }

    @Test func richRateLeavesOutDisplaysThatAskedForNoMediaOrDidNotSay() {
        var media = MediaOutcomes()
        for outcome: ReceiptMedia? in [.attached, .attached, .timedOut, ReceiptMedia.none, nil, nil] {
            media.add(outcome, extensionMillis: nil)
        }
        // The silent two are in no count; a display with an extension time but no outcome is unknown.
        #expect(media.counts == [2, 0, 1, 1, 0])
        #expect(media.richRate == 2.0 / 3.0)
        let columns = Dictionary(uniqueKeysWithValues: media.columns.map { ($0.0, $0.1) })
        #expect(columns["extension_ms_p50"] == .optionalInteger(nil) && columns["extension_ms_p90"] == .optionalInteger(nil))
        media.add(nil, extensionMillis: 40)
        #expect(media.counts == [2, 0, 1, 1, 1] && media.richRate == 2.0 / 3.0)
        var plain = MediaOutcomes()
        plain.add(ReceiptMedia.none, extensionMillis: 12)
        plain.add(nil, extensionMillis: nil)
        #expect(plain.richRate == nil, "no display asked for media")
        #expect(plain.columns.first { $0.0 == "extension_ms_p50" }?.1 == .optionalInteger(12))
    }

    /// Only unique displays count, each into its push, its bucket and its named versions.
    @Test func theCounterCountsUniqueDisplaysOnly() {
        // App version 2.0 admitted by the pushes' app (none), as ingest would have admitted it.
        var counter = RollupCounter(maturityWindow: 0, names: NameFold(admitted: [ExactText(""): AdmittedNames([(.appVersion, "2.0")])]))
        func display(_ media: ReceiptMedia?, _ millis: Int64?, app: String? = "2.0") -> StoredEvent {
            var event = StoredEvent(
                pushID: "p", kind: .display, action: "", receivedAt: 1_000, eventTime: 1_000, duplicate: nil, appVersion: app,
                osVersion: nil)
            (event.media, event.extensionMillis) = (media, millis)
            return event
        }
        counter.add(display(.attached, 800), duplicate: false) { _ in nil }
        counter.add(display(.attached, 800), duplicate: true) { _ in nil }
        counter.add(display(.timedOut, 29_000, app: nil), duplicate: false) { _ in nil }
        var tap = display(.failed, 5)
        tap.kind = .action
        tap.action = "open"
        counter.add(tap, duplicate: false) { _ in nil }
        var silent = display(nil, nil)
        silent.pushID = "q"
        counter.add(silent, duplicate: false) { _ in nil }
        #expect(counter.accumulator.media["q"] == nil && counter.accumulator.mediaVersions.keys.allSatisfy { $0.pushID == "p" })
        #expect(counter.accumulator.mediaBuckets.keys.allSatisfy { $0.pushID == "p" })
        let media = counter.accumulator.media["p"]!
        #expect(media.counts == [1, 0, 1, 0, 0] && media.extensionTime.total == 2)
        #expect(counter.accumulator.mediaBuckets.values.map(\.counts) == [[1, 0, 1, 0, 0]])
        let named = counter.accumulator.mediaVersions[.init(pushID: "p", dimension: 0, version: "2.0")]!
        #expect(named.counts == [1, 0, 0, 0, 0] && counter.accumulator.mediaVersions.count == 1)
        let versions = MediaOutcomes.byVersion(named: [("2.0", named)], total: media)
        #expect(versions[""]?.counts == [0, 0, 1, 0, 0] && versions[""]?.extensionTime.total == 1)
    }

    /// A version its app did not admit counts its media under `other`, as its receipts do.
    @Test func aVersionPastTheBoundCountsItsMediaAsOther() {
        var counter = RollupCounter(maturityWindow: 0, names: NameFold(admitted: [ExactText(""): AdmittedNames([(.osVersion, "17.1")])]))
        var event = StoredEvent(
            pushID: "p", kind: .display, action: "", receivedAt: 1_000, eventTime: 1_000, duplicate: nil, appVersion: "9.9",
            osVersion: "17.1")
        event.media = .attached
        counter.add(event, duplicate: false) { _ in nil }
        let keys = counter.accumulator.mediaVersions.keys.map { "\($0.dimension):\($0.version)" }.sorted()
        #expect(keys == ["0:\(ActionIDs.overflow)", "1:17.1"])
        let versions = counter.accumulator.versions.keys.map { "\($0.dimension):\($0.version)" }.sorted()
        #expect(versions == ["0:\(ActionIDs.overflow)", "1:17.1"])
    }
}

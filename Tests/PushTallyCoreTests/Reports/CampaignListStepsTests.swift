import Testing

@testable import PushTallyCore

/// The campaign list's named steps, each alone: which row a count goes to and the order rows are listed in
/// (``CampaignRowTable``), and a time range's admission of pushes (``FirstEventAdmission``).
@Suite struct CampaignListStepsTests {
    @Test func aRowIsItsCampaignGroupingValueAndPlatform() {
        var table = CampaignRowTable(grouping: .priority, splitsPlatforms: true)
        let urgent = SendAttributes(priority: 10)
        let ios = table.row(campaign: "spring", attributes: urgent, platform: "ios")
        #expect(table.row(campaign: "spring", attributes: urgent, platform: "ios") == ios)
        let home = table.row(campaign: "spring", attributes: urgent)
        #expect(home != ios, "a split row's own row is its campaign's unknown one")
        #expect(table.row(campaign: "spring", attributes: SendAttributes(priority: 5), platform: "ios") != ios)
        #expect(table.row(campaign: "autumn", attributes: urgent, platform: "ios") != ios)
        #expect(table.row(besides: home, platform: "ios") == ios, "a platform's row beside a push's own shares its campaign and value")
        #expect(table[ios].attribute == .optionalInteger(10))
    }

    @Test func unsplitRowsIgnoreThePlatformAndByPlatformTheValueIsThePlatform() {
        var unsplit = CampaignRowTable(grouping: nil, splitsPlatforms: false)
        #expect(unsplit.row(campaign: "c", attributes: nil, platform: "ios") == unsplit.row(campaign: "c", attributes: nil, platform: "web"))
        var byPlatform = CampaignRowTable(grouping: .platform, splitsPlatforms: true)
        let web = byPlatform.row(campaign: "c", attributes: nil, platform: "web")
        #expect(byPlatform[web].attribute == .text("web"))
        #expect(byPlatform[byPlatform.row(campaign: "c", attributes: nil)].attribute == .text(ReportGrouping.unknownPlatform))
    }

    @Test func rowsAreListedByNameThenValueWithOrphansLastAndAPlatformFilterKeepsItsOwn() {
        var table = CampaignRowTable(grouping: .priority, splitsPlatforms: true)
        for (campaign, priority, platform) in [
            (nil, nil, "ios"), ("b", 5, "ios"), ("a", nil, "ios"), ("b", 10, "ios"), ("a", 5, "web"), ("a", 5, "ios"),
        ] as [(String?, Int?, String)] {
            let row = table.row(campaign: campaign, attributes: SendAttributes(priority: priority), platform: platform)
            table[row].funnel.pushes += 1
        }
        let listed = table.listed(platform: nil).map { "\($0.campaign ?? "-")/\($0.attribute.map { "\($0)" } ?? "")" }
        #expect(listed.count == 6)
        #expect(table.listed(platform: nil).map(\.campaign) == ["a", "a", "a", "b", "b", nil], "\(listed)")
        #expect(table.listed(platform: nil).prefix(3).map(\.attribute) == [.optionalInteger(5), .optionalInteger(5), .optionalInteger(nil)])
        #expect(table.listed(platform: "web").map(\.campaign) == ["a"])
        #expect(table.listed(platform: "ios").map(\.campaign) == ["a", "a", "b", "b", nil])
        #expect(table.listed(platform: "android").isEmpty)
    }

    @Test func withoutATimeRangeEveryPushIsAdmittedAtRegistration() {
        var admission = FirstEventAdmission(ReportFilter())
        let unsentKept = admission.registered(position: 0, campaign: "c", attributes: SendAttributes(), sentAtMillis: nil)
        #expect(unsentKept)
        let sentKept = admission.registered(position: 1, campaign: "c", attributes: SendAttributes(), sentAtMillis: 5)
        #expect(sentKept)
        let settled = admission.firstEvent(position: 0, millis: 5)
        #expect(settled == nil, "nothing waits")
    }

    @Test func aTimeRangeAdmitsBySentAtOrElseByTheFirstEventOnce() throws {
        var admission = FirstEventAdmission(ReportFilter(fromMillis: 100, toMillis: 200))
        let inRange = admission.registered(position: 0, campaign: "in", attributes: SendAttributes(), sentAtMillis: 150)
        #expect(inRange)
        let sentBefore = admission.registered(position: 1, campaign: "before", attributes: SendAttributes(), sentAtMillis: 50)
        #expect(!sentBefore)
        let outOfRange = admission.firstEvent(position: 1, millis: 150)
        #expect(outOfRange == nil, "a push with sent_at out of range does not wait")
        let keptAtRegistration = admission.registered(position: 2, campaign: "unsent", attributes: SendAttributes(variant: "B"), sentAtMillis: nil)
        #expect(!keptAtRegistration)
        let firstEvent = admission.firstEvent(position: 2, millis: 199)
        let admitted = try #require(firstEvent)
        #expect(admitted.campaign == "unsent" && admitted.attributes.variant == "B")
        let again = admission.firstEvent(position: 2, millis: 199)
        #expect(again == nil, "settled once")
        let lateKept = admission.registered(position: 3, campaign: "late", attributes: SendAttributes(), sentAtMillis: nil)
        #expect(!lateKept)
        let atTheEnd = admission.firstEvent(position: 3, millis: 200)
        #expect(atTheEnd == nil, "`to` is excluded")
    }
}

import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite

/// Report speed against a `GROUP BY` over raw events, measured in rounds: each round times the `GROUP BY` and
/// then the campaign report back to back, so a machine that drifts during the run (this one is shared) moves
/// both sides of a round's ratio alike, and the target holds in every round, not on average.
struct ReportRounds {
    let store: SQLiteStore
    let rounds: Int
    /// Report runs per round (the round's figure is their median: one run is at the mercy of a context switch).
    let iterations: Int
    /// Series runs of a profile (`--report-rounds 0`).
    let seriesIterations: Int
    let now: Int64

    func run(receipts: Int) async throws {
        guard rounds > 0 else { return try await profile() }
        let raw = try DatabaseQueue(path: store.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var ratios: [Double] = [], campaignTimes: [Double] = [], drillTimes: [Double] = [], seriesTimes: [Double] = []
        for round in 1...rounds {
            let groupBy = try await seconds {
                _ = try raw.read { db in
                    try Row.fetchAll(db, sql: """
                        SELECT p.campaign, COUNT(*), SUM(e.duplicate) FROM events e JOIN pushes p ON p.push_id = e.push_id
                        GROUP BY p.campaign
                        """)
                }
            }
            var times: [Double] = []
            for _ in 0..<iterations {
                times.append(try await seconds { _ = try await store.report(ReportRequest(.campaigns)) })
            }
            let campaign = median(times)
            ratios.append(groupBy / campaign)
            campaignTimes.append(campaign)
            print(String(format: "round %d: GROUP BY over raw events %.0f ms, campaign report %.3f ms (median of %d), %.0fx",
                round, groupBy * 1000, campaign * 1000, iterations, groupBy / campaign))
            for _ in 0..<iterations {
                drillTimes.append(try await seconds { _ = try await store.report(ReportRequest(.campaign("campaign-7"))) })
                seriesTimes.append(try await seconds { _ = try await store.report(Self.series(now: now)) })
            }
        }
        let worst = ratios.min()!, typical = median(ratios)
        print(String(format: "campaign report: %.3f ms (median of rounds); lead over GROUP BY: median %.0fx, worst round %.0fx",
            median(campaignTimes) * 1000, typical, worst))
        print(String(format: "campaign drill-down: %.3f ms; 30-day hourly time series: %.3f ms (medians of %d)",
            median(drillTimes) * 1000, median(seriesTimes) * 1000, seriesTimes.count))
        figure("campaign report over \(receipts) receipts", median(campaignTimes) * 1000, "ms")
        figure("campaign report lead over GROUP BY", typical, "x", ">=", 1000)
        figure("campaign report lead over GROUP BY (worst round)", worst, "x", ">=", 1000)
        figure("30-day hourly time series", median(seriesTimes) * 1000, "ms", "<=", 20)
    }

    /// `--report-rounds 0`: the reports alone, no `GROUP BY`, for a profiler attached to this process
    /// (`--report-iterations` campaign reports, then `--series-iterations` series).
    func profile() async throws {
        for (name, count, request) in [
            ("campaign report", iterations, ReportRequest(.campaigns)),
            ("30-day hourly time series", seriesIterations, Self.series(now: now)),
        ] where count > 0 {
            var times: [Double] = []
            for _ in 0..<count { times.append(try await seconds { _ = try await store.report(request) }) }
            print(String(format: "profile: %@ %.3f ms (median of %d)", name, median(times) * 1000, count))
        }
    }

    /// The 30-day hourly series over every push.
    static func series(now: Int64) -> ReportRequest {
        ReportRequest(.timeseries(TimeseriesOptions(width: .hour)), filter: ReportFilter(fromMillis: now - 30 * 86_400_000, toMillis: now))
    }
}

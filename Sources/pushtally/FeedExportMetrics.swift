import Foundation
import PushTallyCore

/// The Prometheus text an `export --out` run leaves for node_exporter's textfile collector: the same metric
/// names the server gives a reader of `GET /v1/events`, so one alert rule watches either way in.
enum FeedExportMetrics {
    static func write(to path: String, nowMillis: Int64 = StoreConfiguration.systemClock()) throws {
        let now = Double(nowMillis) / 1000
        let text = """
            # HELP pushtally_export_last_success_timestamp_seconds When the export last read the feed to its end.
            # TYPE pushtally_export_last_success_timestamp_seconds gauge
            pushtally_export_last_success_timestamp_seconds{reader="files"} \(now)
            # HELP pushtally_export_lag_seconds How far behind the export was at its last read: 0, as a run reads to the end.
            # TYPE pushtally_export_lag_seconds gauge
            pushtally_export_lag_seconds{reader="files"} 0

            """
        // Written aside and renamed, as the textfile collector asks, so it never reads half a file.
        let aside = path + ".partial"
        try text.write(toFile: aside, atomically: false, encoding: .utf8)
        guard rename(aside, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}

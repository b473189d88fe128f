import Foundation

extension Duration {
    /// Seconds with one decimal (`5.0`), as the writer's stall reasons give a limit.
    var secondsText: String {
        let (seconds, attoseconds) = components
        return String(format: "%.1f", Double(seconds) + Double(attoseconds) / 1e18)
    }
}

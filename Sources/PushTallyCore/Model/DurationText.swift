/// Durations as operators write them on the command line and in alert rules: `30m`, `1h`, `7d`.
public enum DurationText {
    static let units: [(suffix: Character, millis: Int64)] = [
        ("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000),
    ]

    /// Milliseconds of `30s`, `90m`, `24h`, `7d` or `2w`; `nil` for anything else (negative, no unit, overflow).
    public static func millis(_ text: String) -> Int64? {
        guard let last = text.last, let unit = units.first(where: { $0.suffix == last }),
            let amount = Int64(text.dropLast()), amount >= 0, text.dropLast().allSatisfy(\.isASCII)
        else { return nil }
        let (product, overflow) = amount.multipliedReportingOverflow(by: unit.millis)
        return overflow ? nil : product
    }

    /// The shortest text for `millis` in the largest unit that divides it (`90m`, `1h`, `7d`).
    public static func text(millis: Int64) -> String {
        for unit in units where millis % unit.millis == 0 && millis != 0 {
            return "\(millis / unit.millis)\(unit.suffix)"
        }
        return millis == 0 ? "0s" : "\(millis)ms"
    }
}

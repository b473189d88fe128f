/// Wall-clock seconds `body` takes.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// A row of `scripts/bench`'s closing table (see scripts/bench-table.bash); `op` and `threshold` make it a target.
func figure(_ label: String, _ value: Double, _ unit: String, _ op: String = "", _ threshold: Double? = nil) {
    print(["FIGURE", label, String(value), unit, op, threshold.map { String($0) } ?? ""].joined(separator: "\t"))
}

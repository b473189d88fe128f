import Foundation

/// statsmodels' answers for two proportions (Tests/stats/proportions.py): what the variants report's p-values
/// and intervals are held to. Needs python3 with statsmodels (`scripts/install-deps --test`).
public enum StatsmodelsReference {
    /// One comparison: `x1` of `n1` against `x2` of `n2`.
    public struct Case: Sendable, Hashable, CustomStringConvertible {
        public var x1: Int64, n1: Int64, x2: Int64, n2: Int64

        public init(_ x1: Int64, of n1: Int64, against x2: Int64, of n2: Int64) {
            (self.x1, self.n1, self.x2, self.n2) = (x1, n1, x2, n2)
        }

        public var description: String { "\(x1)/\(n1) vs \(x2)/\(n2)" }
    }

    /// statsmodels' p-value and the Wilson interval of each side; `nil` where statsmodels gives NaN.
    public struct Answer: Sendable, Decodable {
        public var pValue: Double?
        public var intervals: [[Double]?]

        enum CodingKeys: String, CodingKey {
            case pValue = "p_value"
            case intervals
        }
    }

    /// Asks statsmodels about every case at once (one Python start), waiting on a thread of its own.
    public static func answers(_ cases: [Case]) async throws -> [Answer] {
        try await blocking { try blockingAnswers(cases) }
    }

    private static func blockingAnswers(_ cases: [Case]) throws -> [Answer] {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PackageRoot.file("Tests/stats/proportions.py").path]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let request = cases.map { ["count": [$0.x1, $0.x2], "nobs": [$0.n1, $0.n2]] }
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let failure = DrainedPipe(errors)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.blockUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("Tests/stats/proportions.py failed (is statsmodels installed? scripts/install-deps --test): "
                + String(decoding: failure.data(), as: UTF8.self))
        }
        let answers = try JSONDecoder().decode([Answer].self, from: data)
        guard answers.count == cases.count else { throw TestFailure("statsmodels answered \(answers.count) of \(cases.count) cases") }
        return answers
    }
}

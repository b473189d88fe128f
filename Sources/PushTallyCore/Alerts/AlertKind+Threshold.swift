extension AlertKind {
    /// The largest threshold the kind takes; every kind takes any above 0. A display rate is at most 1, so
    /// `receipts_stopped` would fire always above it; the ratios of the other kinds may exceed 1 but not 100.
    public var maximumThreshold: Double {
        switch self {
        case .receiptsStopped: 1
        case .displayRateDrop, .versionNotPosting: 100
        }
    }

    /// What the kind's threshold must be, said as its refusal says it.
    var thresholdRule: String {
        switch self {
        case .receiptsStopped:
            "threshold for receipts_stopped is a display rate: above 0 and at most 1 (0.2 is 20 %)"
        case .displayRateDrop:
            "threshold for display_rate_drop is a multiple of the 7 days before's display rate: above 0 and at most 100 (0.5 fires when the rate halves)"
        case .versionNotPosting:
            "threshold for version_not_posting is a multiple of a version's share of opens: above 0 and at most 100 (0.5 fires when its share of receipts is under half)"
        }
    }
}

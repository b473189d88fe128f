/// A store opened on a streaming standby of the primary: reports can be read from it while the primary takes
/// the writes, as long as it is reachable and close enough behind (``ReportReadRouter``).
public protocol ReadReplica: ReportReader, StoreLifecycle {
    /// How far the standby's data trails the primary, in seconds: 0 when it has replayed everything the
    /// primary sent; the time since its last replayed commit when it is behind or has lost its primary.
    func replicationLagSeconds() async throws -> Double
}

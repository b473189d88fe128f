/// The disk a local database file lives on, and its write-ahead log, for the storage gauges
/// (`pushtally_disk_free_bytes`, `pushtally_disk_size_bytes`, `pushtally_database_wal_bytes`): a log that
/// outgrows its checkpoints or a disk near its end is seen before writes are refused.
public struct StorageSpace: Sendable, Equatable {
    /// Bytes an unprivileged process may still write on the database's disk.
    public var diskFreeBytes: Int64
    /// The disk's size in bytes.
    public var diskSizeBytes: Int64
    /// The write-ahead log's size in bytes (0 when there is none).
    public var logBytes: Int64

    public init(diskFreeBytes: Int64, diskSizeBytes: Int64, logBytes: Int64) {
        self.diskFreeBytes = diskFreeBytes
        self.diskSizeBytes = diskSizeBytes
        self.logBytes = logBytes
    }
}

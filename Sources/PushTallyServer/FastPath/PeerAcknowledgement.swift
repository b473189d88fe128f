import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// How much of what the server sent on a connection the client has acknowledged: what tells a slow reader from
/// one that stopped while a large answer sits in the kernel's send buffer, where neither the channel's
/// writability nor a write's completion moves for seconds at a time.
///
/// Linux keeps it in `TCP_INFO` as `tcpi_bytes_acked` (since 4.2); glibc's `struct tcp_info` stops before it, so
/// the kernel's layout is read up to it here. Fields of `struct tcp_info` are only ever appended, so its offset
/// (120) holds on every kernel that has it; where it is missing the value reads 0 and no progress is seen.
enum PeerAcknowledgement {
    /// The first 128 bytes of the kernel's `struct tcp_info`; the last word is `tcpi_bytes_acked`.
    private struct KernelTCPInfo: Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    }

    /// The bytes the peer has acknowledged so far, or `nil` where the channel is not a socket or the kernel
    /// does not say.
    static func bytes(on channel: any Channel) -> EventLoopFuture<UInt64?> {
        #if os(Linux)
        guard let socket = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let info: EventLoopFuture<KernelTCPInfo> = socket.unsafeGetSocketOption(level: .tcp, name: .tcp_info)
        return info.map { info -> UInt64? in info.words.15 }.recover { _ in nil }
        #else
        return channel.eventLoop.makeSucceededFuture(nil)
        #endif
    }
}

// The limit of this design on this box: a minimal SwiftNIO HTTP/1.1 server that answers 204 only after
// a group commit inserted the raw row and upserted one per-push counter. No validation, auth, dedupe or
// routing: `scripts/bench` runs PushTally against it to show what the rest costs.
import Foundation
import GRDB
import NIOCore
import NIOHTTP1
import NIOPosix

final class Writer: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(String, EventLoopPromise<Void>)] = []
    private let pool: DatabasePool

    init(path: String) throws {
        pool = try DatabasePool(path: path)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS events (push_id TEXT NOT NULL, received_at INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS totals (push_id TEXT PRIMARY KEY, total INTEGER NOT NULL) WITHOUT ROWID;
                """)
        }
        Thread { self.run() }.start()
    }

    func submit(_ pushID: String, _ promise: EventLoopPromise<Void>) {
        condition.lock()
        queue.append((pushID, promise))
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let batch = queue
            queue = []
            condition.unlock()
            do {
                try pool.write { db in
                    let insert = try db.cachedStatement(sql: "INSERT INTO events (push_id, received_at) VALUES (?, ?)")
                    let now = Int64(Date().timeIntervalSince1970 * 1000)
                    var perPush: [String: Int] = [:]
                    for (pushID, _) in batch {
                        try insert.execute(arguments: [pushID, now])
                        perPush[pushID, default: 0] += 1
                    }
                    let upsert = try db.cachedStatement(sql: """
                        INSERT INTO totals (push_id, total) VALUES (?, ?)
                        ON CONFLICT (push_id) DO UPDATE SET total = total + excluded.total
                        """)
                    for (pushID, count) in perPush { try upsert.execute(arguments: [pushID, count]) }
                }
                for (_, promise) in batch { promise.succeed(()) }
            } catch {
                for (_, promise) in batch { promise.fail(error) }
            }
        }
    }
}

final class Handler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let writer: Writer
    private var body = ByteBuffer()
    private var keepAlive = true

    init(writer: Writer) { self.writer = writer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            let text = body.readString(length: body.readableBytes) ?? ""
            let pushID = text.split(separator: "&").first { $0.hasPrefix("push_id=") }.map { String($0.dropFirst(8)) } ?? ""
            let promise = context.eventLoop.makePromise(of: Void.self)
            let keepAlive = self.keepAlive
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            promise.futureResult.whenComplete { result in
                let context = loopBound.value
                var headers = HTTPHeaders()
                headers.add(name: "Content-Length", value: "0")
                if !keepAlive { headers.add(name: "Connection", value: "close") }
                let status: HTTPResponseStatus = (try? result.get()) != nil ? .noContent : .serviceUnavailable
                context.write(self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
                let flushed = context.writeAndFlush(self.wrapOutboundOut(.end(nil)))
                if !keepAlive {
                    let channel = context.channel
                    flushed.whenComplete { _ in channel.close(promise: nil) }
                }
            }
            writer.submit(pushID, promise)
        }
    }
}

let arguments = CommandLine.arguments
let port = Int(arguments.dropFirst().first ?? "8090") ?? 8090
let path = arguments.count > 2 ? arguments[2] : "baseline.sqlite"
let writer = try Writer(path: path)
let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
let channel = try ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.backlog, value: 256)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true).flatMap {
            channel.pipeline.addHandler(Handler(writer: writer))
        }
    }
    .bind(host: "127.0.0.1", port: port).wait()
print("baseline listening on 127.0.0.1:\(channel.localAddress?.port ?? port)")
try channel.closeFuture.wait()

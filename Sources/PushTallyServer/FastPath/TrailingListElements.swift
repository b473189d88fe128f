import Foundation
import NIOCore

/// Drops the empty list elements after `chunked` in a request's `Transfer-Encoding` (`chunked,`, `chunked, ,`)
/// and renames its `Upgrade` field to `Ignored` before SwiftNIO's HTTP parser reads the head.
///
/// RFC 9110 §5.6.1 has a recipient ignore empty list elements, so `chunked,` means `chunked`; llhttp, which
/// SwiftNIO runs without its lenient flags and does not let callers set them, refuses it as a coding list that
/// does not end with `chunked`.
///
/// RFC 9110 §7.8 lets a server ignore `Upgrade` and go on speaking HTTP/1.1, which PushTally does (it speaks
/// nothing else). The parser, told of an upgrade by `Upgrade` with `Connection: upgrade`, stops reading the
/// connection after that request instead, so the next request on it would never be answered.
///
/// Only bytes of a request head are touched: those commas, and the tabs in `Transfer-Encoding` and
/// `Content-Length` values (optional whitespace as a space is, which llhttp refuses there), each replaced by a
/// space, and that field's name, replaced by one of the same length. No byte moves, and every length stays what
/// the client framed. To know where heads are it follows the framing of each request as the parser will
/// (`Content-Length` bodies, chunked bodies and their trailers). Whatever it does not follow exactly (obsolete
/// line folding, a bare LF, `CONNECT`, a coding list not ending with `chunked`, both framings, a line past the
/// bound) ends its work on the connection: from there the bytes go to the parser untouched and the parser
/// decides, as without this handler. A head line split across reads is held until its end arrives (at most
/// ``lineBound`` bytes); body bytes pass at once.
final class TrailingListElements: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The longest line held while waiting for its end; a longer one ends the handler's work on the connection.
    static let lineBound = 16 * 1024

    private var framing = RequestFraming()
    /// The start of a line that has not ended yet, from an earlier read.
    private var held: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var input = unwrapInboundIn(data)
        if var earlier = held {
            held = nil
            earlier.writeBuffer(&input)
            input = earlier
        }
        let outcome = input.withUnsafeReadableBytes { framing.read($0) }
        if !outcome.commas.isEmpty || !outcome.upgrades.isEmpty {
            let start = input.readerIndex
            for offset in outcome.commas { input.setInteger(UInt8(ascii: " "), at: start + offset) }
            for offset in outcome.upgrades { input.setBytes(RequestFraming.ignoredName, at: start + offset) }
        }
        if outcome.consumed < input.readableBytes {
            held = input.getSlice(at: input.readerIndex + outcome.consumed, length: input.readableBytes - outcome.consumed)
            input = input.getSlice(at: input.readerIndex, length: outcome.consumed) ?? input
        }
        if input.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(input)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A line cut off by the close goes to the parser as it came, so its answer is the parser's.
        if let held {
            self.held = nil
            context.fireChannelRead(wrapInboundOut(held))
        }
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension TrailingListElements: Sendable {}


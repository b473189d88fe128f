import Foundation

/// A name compared byte for byte, as the databases compare it. Swift's `String` equality is canonical
/// equivalence, so a dictionary keyed by `String` would make one entry of two spellings that storage keeps as
/// two rows (a database written before names were put in NFC at the door may hold both); keyed by this, a
/// report keeps them apart exactly as storage does.
package struct ExactText: Hashable, Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }

    package static func == (a: ExactText, b: ExactText) -> Bool {
        a.text.isExactly(b.text)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(exactly: text)
    }
}

extension String {
    /// Whether the two are the same bytes, as the databases compare names (`==` is canonical equivalence).
    /// A length check, then one `memcmp` of the contiguous bytes: on the writer's hot path, not a walk of two
    /// UTF-8 views.
    package func isExactly(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var (a, b) = (self, other)
        return a.withUTF8 { x in
            b.withUTF8 { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}

extension Hasher {
    /// Feeds `text`'s bytes, for a key whose `==` compares them (``String/isExactly(_:)``).
    package mutating func combine(exactly text: String) {
        // A native string's bytes are contiguous: no copy, no walk of its UTF-8 view.
        let fed: Void? = text.utf8.withContiguousStorageIfAvailable { combine(bytes: UnsafeRawBufferPointer($0)) }
        if fed == nil { for byte in text.utf8 { combine(byte) } }
        combine(text.utf8.count)
    }
}

/// Proactive negotiation by quality value (RFC 9110 §12.4 and §12.5): what a report is written as, and whether
/// it is compressed. `q=0` means "not acceptable"; a more specific range outranks a wider one whatever their order.
enum ContentNegotiation {
    /// One element of an `Accept` or `Accept-Encoding` list: its lower-cased name (`text/csv`, `gzip`) and weight.
    struct Preference: Equatable {
        let name: String
        let quality: Double
    }

    /// The elements of a list field, in order. An element whose weight cannot be read (`q=high`) is left out,
    /// as the rest of its field is still meaningful; empty elements are no element (RFC 9110 §5.6.1).
    static func preferences(_ field: String) -> [Preference] {
        field.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: [" ", "\t"]) }
            guard let name = parts.first?.lowercased(), !name.isEmpty else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: [" ", "\t"]) }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let value = Double(pair[1]), (0...1).contains(value), pair[1].allSatisfy({ $0.isNumber || $0 == "." }) else {
                    return nil
                }
                quality = value
            }
            return Preference(name: name, quality: quality)
        }
    }

    /// The media type of `candidates` (lower-case `type/subtype`) that `accept` rates highest; between equal
    /// ratings, the one named by the more specific range (`text/csv, */*` is CSV), then by the range listed first.
    /// `nil` when it rates every one `q=0` or names none of them.
    static func mediaType(_ candidates: [String], accept: String) -> String? {
        // Media type parameters other than q (`charset=utf-8`) do not change which type is meant here.
        let ranges = preferences(accept)
        let rated = candidates.compactMap { candidate -> (candidate: String, quality: Double, specificity: Int, position: Int)? in
            let type = candidate.split(separator: "/").first.map(String.init) ?? candidate
            // The most specific range that matches decides (§12.5.1): the type itself, then `type/*`, then `*/*`.
            for (specificity, name) in [(2, candidate), (1, type + "/*"), (0, "*/*")] {
                if let position = ranges.firstIndex(where: { $0.name == name }) {
                    return (candidate, ranges[position].quality, specificity, position)
                }
            }
            return nil
        }
        let best = rated.filter { $0.quality > 0 }.max { a, b in
            (a.quality, a.specificity, -a.position) < (b.quality, b.specificity, -b.position)
        }
        return best?.candidate
    }

    /// Whether a response should be gzip-compressed for `acceptEncoding` (§12.5.3): gzip (or its alias `x-gzip`,
    /// §8.4.1.3) or `*` rated above 0 and at least as high as the uncompressed `identity`.
    static func prefersGzip(acceptEncoding: String) -> Bool {
        let codings = preferences(acceptEncoding)
        let star = codings.first { $0.name == "*" }?.quality
        let gzip = codings.filter { $0.name == "gzip" || $0.name == "x-gzip" }.map(\.quality).max() ?? star ?? 0
        // identity is acceptable unless excluded by name or by `*;q=0`.
        let identity = codings.first { $0.name == "identity" }?.quality ?? (star == 0 ? 0 : 1)
        return gzip > 0 && gzip >= identity
    }
}

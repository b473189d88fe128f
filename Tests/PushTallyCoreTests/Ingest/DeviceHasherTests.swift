import Foundation
import PushTallyCore
import Testing

/// Stored device ids must not change with how the hash is computed: dedupe keys, `forget` and timelines
/// match on them. The expected values are HMAC-SHA256 computed independently (Python's hmac), cut to 16 bytes,
/// in unpadded base64url.
@Suite struct DeviceHasherTests {
    @Test func hashesMatchAnIndependentHMAC() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hasher-\(UUID().uuidString).secret").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n".write(toFile: path, atomically: true, encoding: .utf8)
        let hasher = try DeviceHasher.loadOrCreate(at: path)
        #expect(hasher.hash("device-1") == "d1:Eu7kN3JptMf4k67iYGIwbQ")
        #expect(hasher.hash("") == "d1:04tCCW2A9F-Ca0Sp1WB95w")
        #expect(hasher.hash("é-ünïcode-😀") == "d1:6jFhapd7yc2KsDKVcpizUg")
        // The keyed HMAC is copied per id, never carried over from the previous one.
        #expect(hasher.hash("device-1") == "d1:Eu7kN3JptMf4k67iYGIwbQ")
    }
}

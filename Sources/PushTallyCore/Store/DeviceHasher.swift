import Crypto
import Foundation

/// Stores device ids as a keyed hash (HMAC-SHA256 with a secret kept beside the database), so the database
/// alone never holds them in the clear, yet the same device still dedupes and can still be forgotten.
package struct DeviceHasher: Sendable {
    /// An HMAC already keyed: copying it per id skips deriving the inner and outer pads from the key each time.
    private let keyed: HMAC<SHA256>

    init(key: SymmetricKey) {
        self.keyed = HMAC<SHA256>(key: key)
    }

    /// Loads the secret from `path`, creating it (mode 0600) on first start.
    package static func loadOrCreate(at path: String) throws -> DeviceHasher {
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
            let data = Data(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32
        {
            return DeviceHasher(key: SymmetricKey(data: data))
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw FieldError("bad_secret", "\(path) is not a 64-character hex secret; restore it from a backup", field: "secret")
        }
        let key = SymmetricKey(size: .bits256)
        let hex = key.withUnsafeBytes { Data($0) }.map { String(format: "%02x", $0) }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data((hex + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw FieldError("bad_secret", "cannot create \(path)", field: "secret")
        }
        return DeviceHasher(key: key)
    }

    /// `events` with every device id keyed by ``hash(_:)``, as both stores store them. Events without one
    /// (most receipts) are handed back without a copy.
    package func keyingDeviceIDs(of events: [IncomingEvent]) -> [IncomingEvent] {
        guard events.contains(where: { $0.deviceID != nil }) else { return events }
        var keyed = events
        for index in keyed.indices { keyed[index].deviceID = keyed[index].deviceID.map(hash) }
        return keyed
    }

    /// `d1:` + the first 128 bits of the HMAC in unpadded base64url (25 bytes: it is stored twice per receipt,
    /// in the raw row and in the dedupe key); the prefix leaves room for a key rotation later.
    package func hash(_ deviceID: String) -> String {
        var mac = keyed
        var id = deviceID
        id.withUTF8 { mac.update(data: UnsafeRawBufferPointer($0)) }
        // 16 bytes are 22 base64url characters (no padding), encoded here: Foundation's encoder and the
        // `+/` rewrite allocated several strings per receipt on the submitting threads.
        return mac.finalize().withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: 25) { out in
                out[0] = UInt8(ascii: "d"); out[1] = UInt8(ascii: "1"); out[2] = UInt8(ascii: ":")
                var o = 3
                var i = 0
                while i < 16 {
                    let b0 = UInt32(bytes[i]), b1 = i + 1 < 16 ? UInt32(bytes[i + 1]) : 0, b2 = i + 2 < 16 ? UInt32(bytes[i + 2]) : 0
                    let chunk = b0 << 16 | b1 << 8 | b2
                    let count = min(4, (16 - i) * 8 / 6 + ((16 - i) * 8 % 6 == 0 ? 0 : 1))
                    for k in 0..<count { out[o + k] = base64URL[Int(chunk >> (18 - 6 * UInt32(k)) & 63)] }
                    o += count
                    i += 3
                }
                return o
            }
        }
    }
}

/// The base64url alphabet (RFC 4648 section 5).
private let base64URL = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

extension Data {
    fileprivate init?(hex: String) {
        guard hex.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index != hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}

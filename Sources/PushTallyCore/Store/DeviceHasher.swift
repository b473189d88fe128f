import Crypto
import Foundation

/// Stores device ids as a keyed hash (HMAC-SHA256 with a secret kept beside the database), so the database
/// alone never holds them in the clear, yet the same device still dedupes and can still be forgotten.
package struct DeviceHasher: Sendable {
    private let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
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
        let mac = HMAC<SHA256>.authenticationCode(for: Data(deviceID.utf8), using: key)
        let base64 = Data(mac).prefix(16).base64EncodedString()
        var hashed = "d1:"
        hashed.reserveCapacity(25)
        for character in base64.utf8 {
            switch character {
            case UInt8(ascii: "+"): hashed.append("-")
            case UInt8(ascii: "/"): hashed.append("_")
            case UInt8(ascii: "="): continue
            default: hashed.unicodeScalars.append(Unicode.Scalar(character))
            }
        }
        return hashed
    }
}

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

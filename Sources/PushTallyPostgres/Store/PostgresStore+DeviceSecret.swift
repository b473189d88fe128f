import Foundation
import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore {
    private static let secretCheckInput = "pushtally-device-secret-check"

    /// Loads (or on the database's first use creates) the device secret and checks it against the one the
    /// database was first used with, by a keyed hash of a constant (the secret itself never enters the database).
    static func loadDeviceSecret(at path: String, client: PostgresClient, logger: Logger) async throws -> DeviceHasher {
        var recorded: String?
        for try await value in try await client.query(
            "SELECT value FROM meta WHERE key = 'device_secret_check'", logger: logger
        ).decode(String.self) {
            recorded = value
        }
        if recorded != nil, !FileManager.default.fileExists(atPath: path) {
            throw StoreError.misconfigured(
                "no device secret at \(path), but this database was first used with one: copy that file from "
                    + "the first collector (every collector of a database needs the same secret)")
        }
        let hasher = try DeviceHasher.loadOrCreate(at: path)
        let check = hasher.hash(secretCheckInput)
        _ = try await client.withConnection { connection in
            try await connection.runCommitted(
                "INSERT INTO meta (key, value) VALUES ('device_secret_check', \(check)) ON CONFLICT (key) DO NOTHING",
                logger: logger)
        }
        for try await value in try await client.query(
            "SELECT value FROM meta WHERE key = 'device_secret_check'", logger: logger
        ).decode(String.self) where value != check {
            throw StoreError.misconfigured(
                "the device secret at \(path) is not the one this database was first used with: copy the file "
                    + "from the first collector (every collector of a database needs the same secret)")
        }
        return hasher
    }
}

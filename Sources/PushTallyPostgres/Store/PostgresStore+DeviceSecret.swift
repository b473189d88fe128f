import Foundation
import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore {
    private static let secretCheckInput = "pushtally-device-secret-check"

    /// Loads (or on the database's first use creates) the device secret and checks it against the one the
    /// database was first used with, by a keyed hash of a constant (the secret itself never enters the database).
    static func loadDeviceSecret(at path: String, client: PostgresClient, logger: Logger) async throws -> DeviceHasher {
        let recorded = try await recordedCheck(client: client, logger: logger).last
        if recorded != nil, !FileManager.default.fileExists(atPath: path) {
            throw StoreError.misconfigured(
                "no device secret at \(path), but this database was first used with one: copy that file from "
                    + "the first collector (every collector of a database needs the same secret)")
        }
        let hasher = try DeviceHasher.loadOrCreate(at: path)
        let check = hasher.hash(secretCheckInput)
        _ = try await client.withConnection { connection in
            try await connection.runCommitted(PostgresQuery(Queries.InsertDeviceSecretCheck(check: check)), logger: logger)
        }
        for value in try await recordedCheck(client: client, logger: logger) where value != check {
            throw StoreError.misconfigured(
                "the device secret at \(path) is not the one this database was first used with: copy the file "
                    + "from the first collector (every collector of a database needs the same secret)")
        }
        return hasher
    }

    /// The device secret's check as recorded, read before the store (and its pool's runners) exists.
    private static func recordedCheck(client: PostgresClient, logger: Logger) async throws -> [String] {
        var values: [String] = []
        let query = Queries.SelectDeviceSecretCheck()
        for try await row in try await client.query(PostgresQuery(query), logger: logger) {
            values.append(try query.row(PostgresReportRow(row)))
        }
        return values
    }
}

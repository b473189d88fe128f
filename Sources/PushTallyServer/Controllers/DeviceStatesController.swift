import Foundation
import Hummingbird
import PushTallyCore

/// ``APIRoute/deviceStates``: the backend asks about the install ids it holds (the collector keeps only their keyed
/// hashes, so it can answer only ids it is given) and gets each one's ``DarkState`` and last times.
struct DeviceStatesController<Context: RequestContext>: Sendable {
    let store: any DeviceDeliveryStore
    let authorizer: Authorizer
    let reader: BodyReader
    let clock: @Sendable () -> Int64
    /// How long its store work may take (``ServerConfiguration/storeDeadlines``).
    var deadlines = StoreDeadlines()

    struct Answer: Encodable {
        let days: Int
        let devices: [DeviceStateAnswer]
    }

    func register(on routes: RouteTable<Context>) {
        routes.on(.deviceStates, authorizedBy: authorizer) { request, _ in try await self.post(request) }
    }

    func post(_ request: Request) async throws -> Response {
        let type = mediaType(request.headers[.contentType])
        guard type == nil || type == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "device ids are a JSON array (application/json)")
        }
        let days = try DevicesReportKind.whole(
            try QueryValues(request)["days"], "days", in: 1...DeviceStateQuery.maximumDays) ?? DeviceStateQuery.defaultDays
        let ids = try DeviceStateRequest.deviceIDs(try JSONValue.parse(Data(try await reader.read(request).readableBytesView)))
        let states = try await StoreDeadline.run(deadlines.request) { [store] in try await store.deviceStates(deviceIDs: ids) }
        let since = DeviceStateQuery(days: days).sinceMillis(nowMillis: clock())
        return try .json(Answer(days: days, devices: ids.map { DeviceStateAnswer(deviceID: $0, state: states[$0], sinceMillis: since) }))
    }
}

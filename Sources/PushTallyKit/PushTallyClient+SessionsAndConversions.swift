import Foundation

extension PushTallyClient {
    /// Records the start of a session of the app: call it when the app becomes active
    /// (`sceneDidBecomeActive(_:)`, `applicationDidBecomeActive(_:)`, or `scenePhase` turning `.active`).
    ///
    /// The session goes through the same durable outbox as receipts, to `POST /v1/sessions`, with the install
    /// id (`device_id`), `ts`, `app` (`Configuration.app`, the bundle identifier by default), `app_version`
    /// and the notification setting given (`notification_permission`), which the collector's audience report
    /// counts devices by.
    /// Like the other `record` calls it then sends what is queued, so it also delivers what the extension
    /// left behind.
    ///
    /// ```swift
    /// func sceneDidBecomeActive(_ scene: UIScene) {
    ///     Task {
    ///         let settings = await UNUserNotificationCenter.current().notificationSettings()
    ///         await client.recordSession(notificationPermission: NotificationPermission(settings.authorizationStatus))
    ///     }
    /// }
    /// ```
    ///
    /// On Apple platforms ``recordSessionWithCurrentPermission(id:deadline:)`` reads the setting itself.
    ///
    /// - Parameters:
    ///   - id: the session's id, new by default. The collector counts one session per install and id, so
    ///     the outbox's retries never add sessions; pass your own to tie the session to one you already track.
    ///     An id the collector would refuse (empty, over 128 bytes, or with control characters) records
    ///     nothing (`recorded` is false).
    ///   - notificationPermission: the app's notification setting now; `nil` (the default) sends none, and
    ///     the collector counts the device as unknown unless another of its sessions said.
    ///   - deadline: when to stop sending; what is not sent by then stays queued.
    @discardableResult
    public func recordSession(
        id: String = UUID().uuidString, notificationPermission: NotificationPermission? = nil, deadline: Date = .distantFuture
    ) async -> DeliveryReport {
        guard FieldRules.isText(id, limit: FieldRules.maxSessionIDBytes) else { return await flush(deadline: deadline) }
        let now = Date()
        let session = SessionEvent(
            device_id: installID, session_id: id, ts: now.timeIntervalSince1970, app: configuration.app,
            app_version: configuration.appVersion, notification_permission: notificationPermission?.rawValue)
        return await enqueue(.session(session), now: now, deadline: deadline)
    }

    /// Records a conversion, a goal the user reached (`purchase`, `signup`), optionally with what it was worth.
    ///
    /// The conversion goes through the same durable outbox as receipts, to `POST /v1/conversions`, with the
    /// install id (`device_id`) and `ts`. `value` is sent as a JSON number with exactly its decimal digits.
    ///
    /// ```swift
    /// await client.recordConversion(event: "purchase", value: Decimal(string: "9.99"), currency: "USD",
    ///                               id: String(transaction.id))
    /// await client.recordConversion(event: "signup")
    /// ```
    ///
    /// Nothing is recorded (`recorded` is false) for a conversion the collector would refuse: an empty event
    /// name or one over 64 bytes of UTF-8, an id over 128 bytes, control characters in either, a value below 0
    /// or over a billion, a value without a currency or a currency without a value, or a currency that is not
    /// three letters. The collector also refuses a three-letter code that is not an active ISO 4217 currency;
    /// such a conversion is sent and then counted in `DeliveryReport.rejected`.
    ///
    /// - Parameters:
    ///   - event: the conversion's name, up to 64 bytes.
    ///   - value: what it was worth, from 0 to 1,000,000,000; the collector keeps six decimals. Make it from a
    ///     string or integers (`Decimal(string: "9.99")`, `Decimal(999) / 100`): a floating-point literal
    ///     such as `9.99` passes through `Double` on its way to `Decimal` and may keep `Double`'s binary error.
    ///   - currency: the value's ISO 4217 code (`USD`, `EUR`); required with a value, and only with one.
    ///     Sent in capitals.
    ///   - id: a key that makes the conversion count once however often it is recorded, such as an order or
    ///     transaction id. When `nil` one is made up and kept with the queued event, so the outbox's own
    ///     retries still count once (but two calls are two conversions).
    ///   - deadline: when to stop sending; what is not sent by then stays queued.
    @discardableResult
    public func recordConversion(
        event: String, value: Decimal? = nil, currency: String? = nil, id: String? = nil,
        deadline: Date = .distantFuture
    ) async -> DeliveryReport {
        let now = Date()
        guard
            let conversion = ConversionEvent(
                event: event, value: value, currency: currency, id: id, deviceID: installID,
                ts: now.timeIntervalSince1970)
        else { return await flush(deadline: deadline) }
        return await enqueue(.conversion(conversion), now: now, deadline: deadline)
    }
}

import Foundation

/// A push's labels that event messages carry (`campaign`, `app`), as registered; `nil` for an orphan.
package struct PushLabels: Sendable, Hashable {
    package var campaign: String?
    package var app: String?

    package init(campaign: String?, app: String?) {
        self.campaign = campaign
        self.app = app
    }
}

extension PushLabels {
    /// Pushes' labels as one JSON object (`{"push_id":{"campaign":…,"app":…}}`): what an engine that builds
    /// messages after the commit stores of the labels the commit read, so every engine's messages carry
    /// labels read at the same moment.
    package static func snapshot(_ labels: [String: PushLabels]) -> String {
        var json = JSONText()
        json.open()
        for (pushID, label) in labels.sorted(by: { $0.key < $1.key }) {
            var inner = JSONText()
            inner.open()
            inner.field("campaign", label.campaign)
            inner.field("app", label.app)
            inner.close()
            json.field(pushID, json: inner.text)
        }
        json.close()
        return json.text
    }

    /// The labels ``snapshot(_:)`` stored; none for a text that holds none.
    package static func fromSnapshot(_ text: String) -> [String: PushLabels] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { return [:] }
        var labels: [String: PushLabels] = [:]
        for case let (pushID, fields as [String: Any]) in object {
            labels[pushID] = PushLabels(campaign: fields["campaign"] as? String, app: fields["app"] as? String)
        }
        return labels
    }
}

/// Events waiting in the outbox to be packed into messages: what one commit stored of one type.
package struct OutboxRow: Sendable, Hashable {
    package var type: WebhookEventType
    /// How many events ``items`` holds (at most ``WebhookEventType/batchLimit``).
    package var count: Int
    /// The events' JSON objects, comma separated.
    package var items: String

    package init(type: WebhookEventType, count: Int, items: String) {
        self.type = type
        self.count = count
        self.items = items
    }
}

/// The outbox rule every engine runs inside the transaction that stores what a message carries: given the
/// endpoints subscribed when that transaction read them, which messages to queue and for whom. Nothing is
/// queued for an event type nobody subscribed to.
package struct Outbox: Sendable {
    private let endpointsByType: [WebhookEventType: [String]]

    package init(_ subscriptions: [WebhookSubscription]) {
        var byType: [WebhookEventType: [String]] = [:]
        for subscription in subscriptions {
            for type in subscription.events { byType[type, default: []].append(subscription.endpointID) }
        }
        endpointsByType = byType
    }

    /// Whether any endpoint takes `type`: callers skip building payloads (and reading labels) otherwise.
    package func wants(_ type: WebhookEventType) -> Bool { endpointsByType[type] != nil }

    /// Whether any endpoint takes receipts or taps.
    package var wantsEvents: Bool { wants(.receiptDisplayed) || wants(.actionTapped) }

    /// Outbox rows for newly stored receipts and taps (callers leave retries out: they carry nothing new):
    /// the events' JSON, per type, in chunks of at most ``WebhookEventType/batchLimit``. The dispatcher packs
    /// rows into messages within a second (``pack(_:at:)``), so a receiver gets full batches under load
    /// rather than one small message per commit.
    ///
    /// One pass, appending into one buffer per type: this runs inside the group commit, once per event.
    package func rows(forEvents events: [StoredEvent], labels: (String) -> PushLabels?) -> [OutboxRow] {
        var displays = wants(.receiptDisplayed) ? RowBuilder(type: .receiptDisplayed) : nil
        var actions = wants(.actionTapped) ? RowBuilder(type: .actionTapped) : nil
        guard displays != nil || actions != nil else { return [] }
        var rows: [OutboxRow] = []
        var times = TimeText()
        for event in events {
            if event.kind == .display {
                displays?.append(event, labels: labels, times: &times, full: &rows)
            } else {
                actions?.append(event, labels: labels, times: &times, full: &rows)
            }
        }
        for builder in [displays, actions] {
            if let row = builder?.row { rows.append(row) }
        }
        return rows
    }

    /// The raw-event columns a message says of an event: an engine that builds the JSON when packing reads
    /// them back by these declarations.
    package static let eventColumns: [EventColumn] = [
        .pushID, .kind, .action, .receivedAt, .eventTime, .deviceID, .receiptID, .platform, .appVersion, .osVersion,
    ]

    /// Outbox rows of `type` for `events` of its kind, whoever subscribes: for an engine that builds the
    /// JSON when packing, from the events a stored row names.
    package static func rows(_ type: WebhookEventType, events: [StoredEvent], labels: (String) -> PushLabels?) -> [OutboxRow] {
        Outbox([WebhookSubscription(endpointID: "", events: [type])]).rows(forEvents: events, labels: labels)
    }

    /// Packs stored outbox rows (oldest first) into messages of at most ``WebhookEventType/batchLimit``
    /// events each, for the endpoints subscribed now. Every row given is consumed, even when nobody
    /// subscribes any more (its events then go nowhere, as they would have had they arrived now).
    package func pack(_ rows: [OutboxRow], at millis: Int64) -> [QueuedMessage] {
        var queued: [QueuedMessage] = []
        for type in [WebhookEventType.receiptDisplayed, .actionTapped] {
            guard let endpoints = endpointsByType[type] else { continue }
            var parts: [String] = []
            var count = 0
            func flush() {
                guard count > 0 else { return }
                let data = "{\"events\":[" + parts.joined(separator: ",") + "]}"
                queued.append(QueuedMessage(message: WebhookMessage(type: type, data: data, at: millis), endpointIDs: endpoints))
                parts.removeAll(keepingCapacity: true)
                count = 0
            }
            for row in rows where row.type == type {
                if count + row.count > WebhookEventType.batchLimit { flush() }
                parts.append(row.items)
                count += row.count
            }
            flush()
        }
        return queued
    }

    /// `push.registered` for a registration (new or with its totals replaced).
    package func messages(forRegistration push: PushRegistration, outcome: RegistrationOutcome, at millis: Int64) -> [QueuedMessage] {
        guard let endpoints = endpointsByType[.pushRegistered] else { return [] }
        var json = JSONText()
        json.open()
        json.field("push_id", push.pushID)
        json.field("campaign", push.campaign)
        json.field("title", push.title)
        json.field("app", push.app)
        json.field("environment", push.environment)
        json.field("sent_at", push.sentAtMillis.map(Timestamp.iso8601(millis:)))
        json.field("targeted", push.counts.targeted)
        json.field("sent", push.counts.sent)
        json.field("failed", push.counts.failed.values.reduce(0, +))
        json.field("outcome", outcome == .created ? "created" : "updated")
        json.close()
        return [QueuedMessage(message: WebhookMessage(type: .pushRegistered, data: json.text, at: millis), endpointIDs: endpoints)]
    }

    /// `device.rejected` for the devices a post of deliveries turned rejected, in messages of at most
    /// ``WebhookEventType/batchLimit``. A device is named by the backend's `recipient` (its raw id is never kept),
    /// with what the provider said.
    package func messages(forRejected rejected: [(state: DeviceState, line: DeliveryLine)], pushID: String, at millis: Int64) -> [QueuedMessage] {
        guard let endpoints = endpointsByType[.deviceRejected], !rejected.isEmpty else { return [] }
        var messages: [QueuedMessage] = []
        for start in stride(from: 0, to: rejected.count, by: WebhookEventType.batchLimit) {
            var json = JSONText()
            json.raw("{\"devices\":[")
            for (index, device) in rejected[start..<min(start + WebhookEventType.batchLimit, rejected.count)].enumerated() {
                if index > 0 { json.raw(",") }
                json.open()
                json.field("recipient", device.line.recipient ?? device.state.recipient)
                json.field("push_id", pushID)
                json.field("app", device.state.app.isEmpty ? nil : device.state.app)
                json.field("platform", device.state.platform)
                json.field("outcome", device.line.outcome)
                json.field("outcome_at", device.state.lastOutcomeMillis.map(Timestamp.iso8601(millis:)))
                json.close()
            }
            json.raw("]}")
            messages.append(QueuedMessage(message: WebhookMessage(type: .deviceRejected, data: json.text, at: millis), endpointIDs: endpoints))
        }
        return messages
    }

    /// `device.gone` for devices that turned gone (``Queries/ClaimGoneDevices``), in messages of at most
    /// ``WebhookEventType/batchLimit``, each named by the backend's `recipient`.
    package func messages(forGone gone: [DeviceState], at millis: Int64) -> [QueuedMessage] {
        guard let endpoints = endpointsByType[.deviceGone], !gone.isEmpty else { return [] }
        var messages: [QueuedMessage] = []
        for start in stride(from: 0, to: gone.count, by: WebhookEventType.batchLimit) {
            var json = JSONText()
            json.raw("{\"devices\":[")
            for (index, device) in gone[start..<min(start + WebhookEventType.batchLimit, gone.count)].enumerated() {
                if index > 0 { json.raw(",") }
                json.open()
                json.field("recipient", device.recipient)
                json.field("app", device.app.isEmpty ? nil : device.app)
                json.field("platform", device.platform)
                json.field("last_sent_at", device.sends.lastMillis.map(Timestamp.iso8601(millis:)))
                json.field("last_display_at", device.lastDisplayMillis.map(Timestamp.iso8601(millis:)))
                json.field("last_session_at", device.lastSessionMillis.map(Timestamp.iso8601(millis:)))
                json.close()
            }
            json.raw("]}")
            messages.append(QueuedMessage(message: WebhookMessage(type: .deviceGone, data: json.text, at: millis), endpointIDs: endpoints))
        }
        return messages
    }

    /// `alert.firing` or `alert.resolved` for an alert's transition.
    package func messages(forAlert alert: Alert, at millis: Int64) -> [QueuedMessage] {
        let type: WebhookEventType = alert.state == .firing ? .alertFiring : .alertResolved
        guard let endpoints = endpointsByType[type] else { return [] }
        return [QueuedMessage(message: WebhookMessage(type: type, data: alert.json, at: millis), endpointIDs: endpoints)]
    }

    /// Appends one event's JSON object (after a comma unless `first`).
    static func appendEvent(_ event: StoredEvent, labels: PushLabels?, times: inout TimeText, to json: inout JSONText, first: Bool) {
        if !first { json.raw(",") }
        json.open()
        json.field("push_id", event.pushID)
        if event.kind == .action { json.field("action", event.action) }
        json.field("receipt_id", event.receiptID)
        json.field("campaign", labels?.campaign)
        json.field("app", labels?.app)
        json.field("app_version", event.appVersion)
        json.field("os_version", event.osVersion)
        json.field("platform", event.platform)
        json.field("ts", times.iso8601(event.eventTime))
        json.field("received_at", times.iso8601(event.receivedAt))
        // Already keyed by the store (HMAC with the device secret): the raw id never leaves the collector.
        json.field("device_id", event.deviceID)
        json.close()
    }
}

/// One type's outbox rows as they fill: events appended as JSON, a row handed over at each full batch.
private struct RowBuilder {
    let type: WebhookEventType
    var json = JSONText()
    var count = 0

    init(type: WebhookEventType) {
        self.type = type
    }

    /// The events appended since the last full row, if any.
    var row: OutboxRow? { count > 0 ? OutboxRow(type: type, count: count, items: json.text) : nil }

    mutating func append(
        _ event: StoredEvent, labels: (String) -> PushLabels?, times: inout TimeText, full rows: inout [OutboxRow]
    ) {
        Outbox.appendEvent(event, labels: labels(event.pushID), times: &times, to: &json, first: count == 0)
        count += 1
        if count == WebhookEventType.batchLimit, let row {
            rows.append(row)
            self = RowBuilder(type: type)
        }
    }
}

/// ISO 8601 texts of the last time formatted: the events of one commit share their receive time (and,
/// without a device clock, their event time), so most events format none.
struct TimeText {
    private var millis: Int64 = .min
    private var text = ""

    mutating func iso8601(_ value: Int64) -> String {
        if value != millis {
            millis = value
            text = Timestamp.iso8601(millis: value)
        }
        return text
    }
}

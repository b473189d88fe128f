extension TimelineEntry {
    /// The entry of `event`, stored as row `row`, whose push (its own, or the one credited for a session or
    /// conversion) is of `campaign`, sent at `sentAt` by `pushApp`.
    package init(row: Int64, event: StoredEvent, campaign: String?, sentAt: Int64?, pushApp: String?) {
        let kind = event.kind
        self.init(row: row, kind: kind, eventTimeMillis: event.eventTime, receivedAtMillis: event.receivedAt, duplicate: event.duplicate ?? false)
        if kind.namesPush, !event.pushID.isEmpty { self.pushID = event.pushID }
        if kind == .action { self.action = event.action }
        self.campaign = campaign
        self.app = event.app ?? pushApp
        self.appVersion = event.appVersion
        self.osVersion = event.osVersion
        self.sentAtMillis = sentAt
        if !kind.namesPush { self.clientID = event.receiptID }
        self.name = event.name
        self.valueMicros = event.valueMicros
        self.currency = event.currency
        self.attribution = kind.namesPush ? nil : event.attribution
        self.media = event.media
        self.extensionMillis = event.extensionMillis
        self.notificationPermission = event.notificationPermission
    }
}

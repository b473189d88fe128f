import PushTallyCore

extension Queries {
    /// Remembers an imported event by its source database and export sequence, leaving one already imported
    /// as it is: a change means the event is new here. Prepared once per import and bound per event.
    enum InsertImportedEvent {
        static let sql = "INSERT INTO imported_events (source, seq) VALUES (?, ?) ON CONFLICT DO NOTHING"
    }
}

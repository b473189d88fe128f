import PushTallyCore

extension Queries {
    /// Admits one name of a field for an app, leaving a name already admitted as it is: a change means it was
    /// new and took room. Bound with the app and the name, per new name in a commit.
    enum InsertAdmittedName {
        static func sql(_ field: BoundedField) -> String {
            field == .action
                ? "INSERT INTO action_ids (app, action) VALUES (?, ?) ON CONFLICT DO NOTHING"
                : "INSERT INTO dimension_values (app, dimension, value) VALUES (?, \(field.rawValue), ?) ON CONFLICT DO NOTHING"
        }
    }
}

import PushTallyCore

extension Queries {
    /// How many names of one field an app has admitted: the slot's room as the writer's transaction sees it.
    /// Bound with the app, once per app and field a commit brings new names for.
    enum CountAdmittedNames {
        static func sql(_ field: BoundedField) -> String {
            field == .action
                ? "SELECT COUNT(*) FROM action_ids WHERE app = ?"
                : "SELECT COUNT(*) FROM dimension_values WHERE app = ? AND dimension = \(field.rawValue)"
        }
    }
}

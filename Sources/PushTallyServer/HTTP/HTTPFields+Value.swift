import HTTPTypes

extension HTTPFields {
    /// The field's value as `self[name]` gives it, without its cost in the common case of one field.
    ///
    /// `self[name]` joins every field of the name through a lazy generic sequence, building a new string even
    /// for a single field; the ingest hot path reads five fields per request. One field's value is returned as
    /// it is; repeated fields fall back to the joined form, so the result is the same.
    func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}

/// One spelling per platform: a platform's name is kept in ASCII lower case (`iOS`, `IOS` and `ios` are
/// `ios`), as every client and FCM's `sdk_platform` mean one platform by them. Only ASCII letters fold: the
/// engines fold them alike (SQLite's `lower()`, PostgreSQL's in the `"C"` collation), so a name stored before
/// the rule and folded by ``PlatformCaseMigration`` meets the same name sent after it.
public enum PlatformName {
    /// `name` with its ASCII letters in lower case.
    public static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { (65...90).contains($0) }) else { return name }
        return String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// What became of a push's media, as a display receipt reports it (`media`).
public enum MediaOutcome: String, Sendable, Equatable, CaseIterable {
    /// The push named no media.
    case none
    /// The media was downloaded and attached: the rich notification was shown.
    case attached
    /// The download or the attachment failed (an error answer, a type notifications cannot show, a file over
    /// Apple's size limit): the plain notification was shown.
    case failed
    /// Time ran out first (the media budget, or `serviceExtensionTimeWillExpire`): the plain notification was
    /// shown.
    case timedOut = "timed_out"
}

@testable import PushTallyCore

extension PushRowSink {
    /// One `rollup_push` row given by its events, late displays and first event, as these tests write rows.
    mutating func rollup(pushID: String, kind: EventKind, action: String, count: EventCount, late: Int64, firstEvent: Int64) {
        var values = RollupAccumulator.Delta()
        (values.total, values.duplicates, values.firstTime, values.lastTime, values.counts[.late]) =
            (count.total, count.duplicates, firstEvent, firstEvent, late)
        rollup(pushID: pushID, kind: kind, action: action, values: values)
    }
}

extension PushFigures {
    /// The rows a store holds for this push's registration, sends and displays, fed to `sink`: what the test
    /// doubles of ``ReportReader`` hand over for the figures they are given (which carry nothing else).
    func feedRegistrationSendsAndDisplays<Sink: PushRowSink>(into sink: inout Sink) {
        if let campaign {
            sink.registered(
                pushID: pushID, campaign: campaign, title: title, sentAtMillis: sentAtMillis, app: app, environment: environment,
                attributes: attributes)
        }
        if sink.readsFirstEvents, let firstEventMillis { sink.firstEvent(pushID: pushID, millis: firstEventMillis) }
        sink.sends(pushID: pushID, targeted: funnel.targeted, sent: funnel.sent)
        if funnel.displays != EventCount() || firstEventMillis != nil {
            sink.rollup(
                pushID: pushID, kind: .display, action: "", count: funnel.displays, late: funnel.late,
                firstEvent: firstEventMillis ?? sentAtMillis ?? 0)
        }
    }
}

import PushTallyCore
import Testing

@Suite struct ReportReadsTests {
    /// `PushTally-Data-Lag`: seconds to the millisecond with no trailing zeros, `0` for none (or no finite lag).
    @Test func lagIsWrittenInSecondsToTheMillisecond() {
        #expect(ReportReadRouter.secondsText(0) == "0")
        #expect(ReportReadRouter.secondsText(0.0004) == "0")
        #expect(ReportReadRouter.secondsText(0.0006) == "0.001")
        #expect(ReportReadRouter.secondsText(0.25) == "0.25")
        #expect(ReportReadRouter.secondsText(1) == "1")
        #expect(ReportReadRouter.secondsText(12.5) == "12.5")
        #expect(ReportReadRouter.secondsText(3600.123) == "3600.123")
        #expect(ReportReadRouter.secondsText(.infinity) == "0")
        #expect(ReportReadRouter.secondsText(-1) == "0")
    }
}

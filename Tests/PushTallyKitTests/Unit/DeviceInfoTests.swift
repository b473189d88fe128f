import Foundation
import Testing

@testable import PushTallyKit

@Suite struct DeviceInfoTests {
    @Test func osVersionIsNumericWithThePatchOnlyWhenThereIsOne() {
        #expect(DeviceInfo.osVersion(OperatingSystemVersion(majorVersion: 18, minorVersion: 1, patchVersion: 0)) == "18.1")
        #expect(DeviceInfo.osVersion(OperatingSystemVersion(majorVersion: 18, minorVersion: 1, patchVersion: 1)) == "18.1.1")
        #expect(DeviceInfo.osVersion(OperatingSystemVersion(majorVersion: 17, minorVersion: 0, patchVersion: 0)) == "17.0")
    }

    /// What a client sends unless told otherwise: this system's version in that form, not
    /// `operatingSystemVersionString` (`Version 18.1 (Build 22B83)` on Apple platforms).
    @Test func theDefaultOSVersionIsThisSystemsNumericVersion() throws {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let sent = try #require(PushTallyClient.Configuration().osVersion)
        #expect(sent == DeviceInfo.osVersion(version))
        #expect(sent.wholeMatch(of: /\d+\.\d+(\.\d+)?/) != nil)
        #expect(sent.hasPrefix("\(version.majorVersion).\(version.minorVersion)"))
    }

    @Test func appVersionIsTheShortVersionStringNotTheBuildNumber() {
        let info: [String: Any] = ["CFBundleShortVersionString": "4.2.0", "CFBundleVersion": "451"]
        #expect(DeviceInfo.appVersion(infoDictionary: info) == "4.2.0")
        #expect(DeviceInfo.appVersion(infoDictionary: ["CFBundleVersion": "451"]) == nil)
        #expect(DeviceInfo.appVersion(infoDictionary: nil) == nil)
        #expect(PushTallyClient.Configuration().appVersion == DeviceInfo.appVersion(infoDictionary: Bundle.main.infoDictionary))
    }
}

import Foundation

/// The app and system versions every event carries, in the form the collector's per-version reports group by.
enum DeviceInfo {
    /// The numeric OS version: `18.1`, or `18.1.1` when there is a patch level.
    ///
    /// Not `operatingSystemVersionString` (`Version 18.1 (Build 22B83)`): that one is for people, its format
    /// is not API, and the build number would split one version into many rows of the version report.
    /// `operatingSystemVersion` is on every Apple platform the Kit supports (iOS 8, macOS 10.10, watchOS 2,
    /// tvOS 9) and on Linux (the kernel's release, which is what the tests see).
    static func osVersion(_ version: OperatingSystemVersion = ProcessInfo.processInfo.operatingSystemVersion) -> String {
        let majorMinor = "\(version.majorVersion).\(version.minorVersion)"
        return version.patchVersion > 0 ? "\(majorMinor).\(version.patchVersion)" : majorMinor
    }

    /// The version users see (`CFBundleShortVersionString`), not the build number (`CFBundleVersion`).
    /// An extension's own Info.plist must carry its app's short version (App Store rule), so `Bundle.main`
    /// gives the same answer in the app and in its extension.
    static func appVersion(infoDictionary: [String: Any]? = Bundle.main.infoDictionary) -> String? {
        infoDictionary?["CFBundleShortVersionString"] as? String
    }
}

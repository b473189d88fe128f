import CBuildStamp

/// What `pushtally --version` prints.
enum BuildVersion {
    /// The version and commit scripts/build-release stamped into this binary, or a plain statement that no script
    /// did (a binary from `swift build` knows neither).
    static var text: String {
        let stamp = String(cString: pushtally_build_stamp())
        return stamp.isEmpty ? "development build (swift build, not scripts/build-release: no version or commit stamped)" : stamp
    }
}

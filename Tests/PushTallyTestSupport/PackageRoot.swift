import Foundation

/// The package's checkout, for tests that read its files (docs, scripts, dashboards, `Tests/browser`):
/// the nearest folder above this source file that holds `Package.swift`. Found by looking rather than by
/// counting folders, so a test file can move to another folder without its paths breaking.
public enum PackageRoot {
    /// The checkout's folder.
    public static let url: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// `relativePath` (such as `docs/API.md` or `Tests/browser/web_push.py`) inside the checkout.
    public static func file(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath)
    }
}

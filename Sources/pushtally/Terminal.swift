import Foundation
import PushTallyCore

/// Whether output goes to a person or a pipe, and how a person's terminal draws it.
enum Terminal {
    /// Standard output is a terminal: tables and percents for people; otherwise the machine-readable forms.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width from `COLUMNS`, else 120 columns.
    static var width: Int {
        environment("COLUMNS").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 120
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    static var colour: Bool { isInteractive && environment("NO_COLOR") == nil }

    static func style(wide: Bool) -> HumanTableStyle {
        HumanTableStyle(width: width, wide: wide, colour: colour)
    }
}

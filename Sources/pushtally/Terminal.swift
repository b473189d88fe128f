import Foundation
import PushTallyCore

/// Whether output goes to a person or a pipe, and how a person's terminal draws it.
enum Terminal {
    /// Standard output is a terminal: tables and percents for people; otherwise the machine-readable forms.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The width to draw tables in: `COLUMNS` when it is set (an explicit override: shells do not export it),
    /// else the window size of the terminal standard output goes to, else 80 columns.
    static var width: Int {
        if let columns = environment("COLUMNS").flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    static var colour: Bool { isInteractive && environment("NO_COLOR") == nil }

    static func style(wide: Bool) -> HumanTableStyle {
        HumanTableStyle(width: width, wide: wide, colour: colour)
    }
}

import Testing

@testable import PushTallyCore

/// The assembly finds a row's push by the order rows usually come in, and moves its figures out at the end:
/// neither may change which push a row counts for, whatever order the rows come in.
@Suite struct PushFiguresAssemblyTests {
    /// Registered pushes (not in id order, as SQLite's rowid order gives them) with a display count each.
    private func assembly(rowsIn ids: [String]) -> PushFiguresAssembly {
        var assembly = PushFiguresAssembly()
        for (number, id) in ["p10", "p2", "p1", "p3"].enumerated() {
            assembly.registered(
                pushID: id, campaign: "c\(number % 2)", title: nil, sentAtMillis: Int64(number), app: nil, environment: nil)
        }
        for id in ids {
            let total = Int64(id.dropFirst().isEmpty ? 0 : Int(id.filter(\.isNumber)) ?? 0)
            assembly.rollup(pushID: id, kind: .display, action: "", count: EventCount(total: total), late: 0, firstEvent: 1)
            assembly.sends(pushID: id, targeted: total, sent: total)
        }
        return assembly
    }

    @Test(arguments: [
        ["p1", "p1", "p10", "p2", "p3"],  // push id order, a push on two rows
        ["p3", "p1", "p2", "p10", "p10"],  // any other order
        ["p1", "orphan7", "p2", "p3", "p10"],  // an orphan between registered pushes
    ])
    func rowsCountForThePushTheyName(_ ids: [String]) throws {
        var assembly = assembly(rowsIn: ids)
        let copied = try assembly.figures(ReportFilter())
        let taken = try assembly.takeFigures(ReportFilter())
        #expect(taken == copied)
        #expect(taken.map(\.pushID) == Set(ids + ["p1", "p2", "p3", "p10"]).sorted())
        for push in taken {
            let number = Int64(push.pushID.filter(\.isNumber))!
            let rows = Int64(ids.filter { $0 == push.pushID }.count)
            #expect(push.funnel.displays.total == number * rows, "\(push.pushID)")
            // Send rows add up, one per sender (the orphan's too: its receipt row made it first).
            #expect(push.funnel.sent == number * rows, "\(push.pushID)")
        }
    }

    @Test func takenFiguresAreTheSelectedOnesInPushIDOrder() throws {
        var assembly = assembly(rowsIn: ["p1", "p2", "p3", "p10"])
        let filter = ReportFilter(campaign: "c0")
        let copied = try assembly.figures(filter)
        #expect(copied.map(\.pushID) == ["p1", "p10"])
        #expect(try assembly.takeFigures(filter) == copied)
    }

    @Test(arguments: [[Int](), [2], [3, 0], [1, 4, 0, 2, 3], [4, 3, 2, 1, 0]])
    func permutingMovesTheSelectedValuesIntoOrder(_ selected: [Int]) {
        var values = ["a", "b", "c", "d", "e"]
        PushOrder.permute(&values, into: selected)
        #expect(values == selected.map { ["a", "b", "c", "d", "e"][$0] })
    }
}

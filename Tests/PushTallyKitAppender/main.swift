// A second OS process for PushTallyKit's tests: it plays the app or the extension, recording displays into
// a store directory another process uses at the same time.
//
// PushTallyKitAppender STORE ENDPOINT TAG COUNT BARRIER
//   records COUNT displays with push ids TAG-0 … TAG-(COUNT-1) through the public API; first creates
//   BARRIER/ready-TAG and waits for BARRIER/go, so the test can start every process's appends at once.
//   Exits 0 when every display was recorded, 1 otherwise, 2 on bad arguments or when the test that
//   started it is gone before the barrier opens.
import Foundation
import PushTallyKit

let arguments = CommandLine.arguments
guard arguments.count == 6, let endpoint = URL(string: arguments[2]), let count = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: PushTallyKitAppender STORE ENDPOINT TAG COUNT BARRIER\n".utf8))
    exit(2)
}
let store = URL(fileURLWithPath: arguments[1])
let tag = arguments[3]
let barrier = URL(fileURLWithPath: arguments[5])

var configuration = PushTallyClient.Configuration()
configuration.appVersion = "2.1"
// The endpoint is expected to refuse: keep the backoff short so the test's flush afterwards is not held.
configuration.baseBackoff = 0.01
configuration.maxBackoff = 0.01

guard FileManager.default.createFile(atPath: barrier.appendingPathComponent("ready-\(tag)").path, contents: nil) else { exit(2) }
let parent = getppid()
// No deadline of its own: the other process may take long to start on a busy machine. It gives up only when
// the test that started it is gone (it would then be re-parented).
while !FileManager.default.fileExists(atPath: barrier.appendingPathComponent("go").path) {
    guard getppid() == parent else { exit(2) }
    usleep(1_000)  // this process's main thread, before any task runs: nothing else waits on it
}

let client = try PushTallyClient(endpoint: endpoint, storeDirectory: store, configuration: configuration)
var recorded = 0
for index in 0..<count {
    let report = await client.recordDisplay(userInfo: ["push_id": "\(tag)-\(index)"], deadline: Date().addingTimeInterval(10))
    if report.recorded { recorded += 1 }
}
print("recorded \(recorded) of \(count)")
exit(recorded == count ? 0 : 1)

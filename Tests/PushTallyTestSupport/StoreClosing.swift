import Foundation
import PushTallyCore

extension StoreLifecycle {
    /// `close()` on a thread of its own, not waited for: what a `defer` can do, as it cannot await
    /// ``StoreLifecycle/shutdown()``. `close()` joins the store's writers, which would hold a cooperative thread
    /// that the stores and servers under test need. Code that goes on with the store's files awaits
    /// `shutdown()` instead.
    public func closeInBackground() {
        let thread = Thread { self.close() }
        thread.name = "pushtally-test-store-close"
        thread.start()
    }
}

import Testing
import HummingbirdTesting
@Test func y() {}

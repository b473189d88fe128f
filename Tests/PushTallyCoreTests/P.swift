import Testing
@Test func x() {}

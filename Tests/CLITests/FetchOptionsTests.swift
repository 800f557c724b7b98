import Testing

/// The fetch settings a crawling process takes from flags and the environment: a bad value is
/// refused with its name, never dropped for the default.
@Suite struct FetchOptionsTests {
    @Test(arguments: [
        (["--max-per-address", "0"], [String: String](), "--max-per-address must be at least 1"),
        ([], ["AASA_MONITOR_MAX_PER_ADDRESS": "eight"], "AASA_MONITOR_MAX_PER_ADDRESS=eight: give a whole number"),
        ([], ["AASA_MONITOR_TLS_SESSIONS": "4k"], "AASA_MONITOR_TLS_SESSIONS=4k: give a whole number"),
        (["--tls-sessions=-1"], [:], "--tls-sessions must be 0 or more"),
    ])
    func aBadSettingIsRefusedByName(flags: [String], environment: [String: String], message: String) throws {
        let outcome = try BuiltCommand.run(["worker", "--data-dir", "/nonexistent-aasa-test"] + flags, environment: environment)
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
}

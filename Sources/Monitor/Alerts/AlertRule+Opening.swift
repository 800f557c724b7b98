import Vocabulary

extension AlertRule {
    /// A certificate's expiry date is a fact, not a flaky measurement: waiting for a second check
    /// to confirm it would only delay the warning.
    var opensOnFirstFailure: Bool { self == .certificateExpiring }
}

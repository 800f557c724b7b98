import Vocabulary
/// One rule's verdict on one check: which subjects fail, or that the rule could not be judged.
public struct RuleCheck: Hashable, Sendable {
    public struct Failure: Hashable, Sendable {
        public var subject: String = ""
        public var summary: String
        /// For rules with thresholds (certificate expiry): the threshold reached, in days.
        public var level: Int?
    }

    public var rule: AlertRule
    /// False when this check says nothing about the rule (no certificate without a response, no
    /// app IDs without a document): its alerts neither count a failure nor a recovery.
    public var evaluated: Bool = true
    public var failures: [Failure] = []
    /// Set when the rule no longer applies to the domain (its platform is not watched any more): why.
    /// Its open alerts close at once with this reason, and streaks of unopened ones are forgotten.
    public var withdrawn: String?

    static func notEvaluated(_ rule: AlertRule) -> RuleCheck { RuleCheck(rule: rule, evaluated: false) }

    /// The rule of a platform the domain is not watched for.
    static func withdrawn(_ rule: AlertRule, platform: Platform) -> RuleCheck {
        RuleCheck(rule: rule, evaluated: false, withdrawn: "\(platform.label) is no longer watched for this domain.")
    }
}

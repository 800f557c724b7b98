import Store

/// `/api/v1/settings/alerts`: the instance's alert thresholds and retry interval (`AlertTuning`), as
/// the settings page and a config file's `alerts:` set them.
enum AlertSettingsAPI {
    struct TuningJSON: Encodable {
        let failure_threshold: Int
        let success_threshold: Int
        let retry_minutes: Int
        /// In words, as the domain page says it: "alerts after 2 failing checks, 1 min apart; …".
        let summary: String

        init(_ tuning: AlertTuning) {
            failure_threshold = tuning.failureThreshold
            success_threshold = tuning.successThreshold
            retry_minutes = tuning.retryMinutes
            summary = tuning.sentence
        }
    }

    /// Members left out keep their value; the ranges are the settings page's.
    static let inputSchema = APISchema.object([
        ("failure_threshold", .integer(minimum: AlertTuning.thresholds.lowerBound, maximum: AlertTuning.thresholds.upperBound)),
        ("success_threshold", .integer(minimum: AlertTuning.thresholds.lowerBound, maximum: AlertTuning.thresholds.upperBound)),
        ("retry_minutes", .integer(minimum: AlertTuning.retryRange.lowerBound, maximum: AlertTuning.retryRange.upperBound)),
    ], required: [])

    static func read(_ c: RequestContext, store: any SettingsStore) throws -> WebResponse {
        APIResponses.json(TuningJSON(try store.alertTuning()))
    }

    static func change(_ c: RequestContext, store: any SettingsStore & TransactionalStore) throws -> WebResponse {
        let body = try APIRequest.body(c, inputSchema, maxBytes: 4 << 10)
        let saved = try store.withTransaction { transaction in
            var tuning = try transaction.alertTuning()
            if let n = body["failure_threshold"]?.integer { tuning.failureThreshold = n }
            if let n = body["success_threshold"]?.integer { tuning.successThreshold = n }
            if let n = body["retry_minutes"]?.integer { tuning.retryMinutes = n }
            // The schema has checked the ranges; `problems` is the same rule, kept for the stored values a hand edit may have left.
            if let problem = tuning.problems.min(by: { $0.key < $1.key }) { throw WebError.unprocessable(problem.value, field: problem.key) }
            try transaction.setAlertTuning(tuning)
            return tuning
        }
        return APIResponses.json(TuningJSON(saved))
    }
}

import Vocabulary

extension Row {
    /// A domain's reason from its two columns (`last_reason`, `last_reason_platform`, or what a query
    /// names them): nil without a line; a platform this version does not know is an error, never
    /// another platform.
    func decodeReason(text: String = "last_reason", platform: String = "last_reason_platform") throws -> DomainReason? {
        guard let line = try decode(text, as: String?.self) else { return nil }
        return DomainReason(line, platform: try decode(platform, as: Platform?.self))
    }
}

/// The reason's columns in a `RowDecodable` row type (`DomainRecord`): read as one `DomainReason`.
struct ReasonColumns: RowDecodable, Sendable, Hashable {
    var lastReason: String?
    var lastReasonPlatform: Platform?

    init(_ reason: DomainReason?) {
        lastReason = reason?.text
        lastReasonPlatform = reason?.platform
    }

    var reason: DomainReason? { lastReason.map { DomainReason($0, platform: lastReasonPlatform) } }
}

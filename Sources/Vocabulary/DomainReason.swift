/// The one line that explains a domain's state (`domains.last_reason`) and the platform whose state
/// it explains (`domains.last_reason_platform`): typed, so no reader tells Apple's words from
/// Android's by parsing the line. `DomainVerdict` (Monitor) writes it; the overview, the domain page,
/// the API, `status` and the badge read it.
public struct DomainReason: Hashable, Sendable {
    /// The platform whose file or expectation the line is about; nil when an open alert leads the
    /// reason (`DomainVerdict.lead(with:)`): the alert's summary speaks for itself.
    public var platform: Platform?
    /// The line without any platform name.
    public var text: String

    public init(_ text: String, platform: Platform?) {
        self.text = text
        self.platform = platform
    }

    /// The line as people read it, built here at the edge: Android's reason named as Android's (the
    /// default platform, Apple, reads as it always has), an alert's summary as it is.
    public var line: String {
        switch platform {
        case .android: "\(Platform.android.label): \(text)"
        case .apple, nil: text
        }
    }
}

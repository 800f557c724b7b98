import Vocabulary

extension DomainState {
    /// The state as a coloured pill; the class names (`state-failing`) are the raw values.
    public var pill: HTML { "<span class=\"pill state-\(rawValue)\">\(label)</span>" }

    /// Beside the state of a paused domain (the overview, the domain page): its last state stands, and
    /// nothing checks it until it is resumed.
    public static let pausedPill: HTML = "<span class=\"pill paused\" title=\"Not checked until resumed\">Paused</span>"
}

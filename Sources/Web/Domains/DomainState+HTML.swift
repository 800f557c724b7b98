import Vocabulary

extension DomainState {
    /// The state as a coloured pill; the class names (`state-failing`) are the raw values.
    public var pill: HTML { "<span class=\"pill state-\(rawValue)\">\(label)</span>" }
}

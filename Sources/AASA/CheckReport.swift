import Vocabulary

/// The outcome of one full check of a domain: which location a device would use, the document it
/// would get, every finding, and a verdict. Produced by `CheckEvaluation.evaluate`.
public struct CheckReport: Hashable, Sendable {
    /// The location a device (through Apple's CDN) would take the file from; nil when neither works.
    public var deviceLocation: TransportFacts.Location?
    /// The parsed document at `deviceLocation`, when it parsed.
    public var document: AASADocument?
    /// Apple's CDN copy as the evaluation read it to compare it with the origin's file: `.some(nil)`
    /// when it could not be read; nil when it was not read (not asked, not served, nothing to compare
    /// with, or the copy devices read, which is `document`). Its bytes are the origin's when they are the same.
    public var copyDocument: AASADocument?? = nil
    /// Errors first, then warnings, deprecations, infos.
    public var findings: [Finding]
    public var verdict: Verdict
    /// True when no HTTP answer came from the origin for a reason that may be ours (DNS, refused,
    /// timeout, reset, the outbound policy): the CLI's exit status 3.
    public var couldNotCheck: Bool

    public var codes: [String] { findings.map(\.code) }
}

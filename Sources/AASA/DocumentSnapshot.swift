import Vocabulary

/// A body as the check evaluation sees it: validated by `AASAValidator`, comparable by behaviour.
struct DocumentSnapshot {
    var document: AASADocument?
    var findings: [Finding]
    private var raw: [UInt8]

    init(facts: TransportFacts) {
        let report = AASAValidator.validate(facts.body)
        document = report.document
        findings = report.sortedFindings
        raw = facts.body
    }

    /// The body of `facts` is these very bytes.
    func sameBytes(_ facts: TransportFacts) -> Bool { raw == facts.body }

    /// Same behaviour as the body of `facts`; identical bytes need no second validation (which
    /// matters: validation is the costly part of a check).
    func behavesLike(_ facts: TransportFacts) -> Bool {
        raw == facts.body || behavesLike(DocumentSnapshot(facts: facts))
    }

    /// Same behaviour on every device (`AASADiff`: formatting, key order, comments and positions
    /// do not count); two unreadable bodies agree only when they are the same bytes.
    func behavesLike(_ other: DocumentSnapshot) -> Bool {
        switch (document, other.document) {
        case (let a?, let b?): AASADiff.diff(old: a, new: b).isBehaviourallyEqual
        case (nil, nil): raw == other.raw
        default: false
        }
    }
}

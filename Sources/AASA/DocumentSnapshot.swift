
// INTERIM: `behavesLike` stands in for aasa-match's `AASADiff.diff(old:new:).isBehaviourallyEqual`
// until it lands on main.

/// A body as the evaluation sees it: validated by `AASAValidator`, comparable by behaviour.
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

    /// Same behaviour: equal documents once source locations and comments (which change nothing a
    /// device does) are set aside; unreadable bodies compare by their bytes.
    func behavesLike(_ other: DocumentSnapshot) -> Bool {
        switch (document, other.document) {
        case (let a?, let b?): a.behaviourOnly == b.behaviourOnly
        case (nil, nil): raw == other.raw
        default: false
        }
    }
}

extension AASADocument {
    /// The document without what cannot change behaviour (positions, comments).
    var behaviourOnly: AASADocument {
        let nowhere = SourceLocation(pointer: "")
        var copy = self
        copy.wasSigned = false
        for key in copy.appServices.keys { copy.appServices[key]?.location = nowhere }
        if var links = copy.applinks {
            links.location = nowhere
            links.substitutionVariables = links.substitutionVariables.map { var v = $0; v.location = nowhere; return v }
            links.details = links.details.map { entry in
                var e = entry
                e.location = nowhere
                e.rules = e.rules.map { var r = $0; r.location = nowhere; r.comment = nil; return r }
                return e
            }
            copy.applinks = links
        }
        return copy
    }
}

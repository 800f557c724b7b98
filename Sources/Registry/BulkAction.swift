import Store

/// What the overview can do to many domains at once; the raw values are the form's `action`.
public enum BulkAction: String, Sendable, CaseIterable {
    case checkNow = "check", pause, resume, setInterval = "interval", delete

    /// The verb, as the confirmation asks it: "Pause 37 domains?".
    public var verb: String {
        switch self {
        case .checkNow: "Check"
        case .pause: "Pause"
        case .resume: "Resume"
        case .setInterval: "Change the interval of"
        case .delete: "Delete"
        }
    }

    /// What was done, as the banner after it says: "Paused 37 domains".
    public var done: String {
        switch self {
        case .checkNow: "Requested a check of"
        case .pause: "Paused"
        case .resume: "Resumed"
        case .setInterval: "Changed the interval of"
        case .delete: "Deleted"
        }
    }
}

extension DomainRegistry {
    /// How many domains the selection holds now (the confirmation's count).
    public func count(_ selection: DomainSelection) throws -> Int {
        try store.count(selection)
    }

    /// The display names of the first `limit` selected domains, by name (the confirmation's list).
    public func names(_ selection: DomainSelection, limit: Int) throws -> [String] {
        try store.names(selection, limit: limit)
    }

    /// Applies `action` to every selected domain in one statement, whatever their number, with the
    /// single-domain action's rules: a paused domain is not requested; a resumed or requested one
    /// wakes the crawlers. `intervalMinutes` is the new interval of `.setInterval` and must be one of
    /// the offered intervals (else `RegistrationError.invalid`).
    public func perform(_ action: BulkAction, on selection: DomainSelection, intervalMinutes: Int? = nil) throws -> BulkChange {
        let change: BulkChange
        switch action {
        case .checkNow: change = try store.requestCheck(selection)
        case .pause: change = try store.setPaused(selection, true)
        case .resume: change = try store.setPaused(selection, false)
        case .delete: change = try store.deleteDomains(selection)
        case .setInterval:
            guard let minutes = intervalMinutes, Registration.offeredIntervals.contains(where: { $0.minutes == minutes }) else {
                throw RegistrationError.invalid([.interval: "Choose one of the offered intervals."])
            }
            change = try store.setInterval(selection, seconds: minutes * 60)
        }
        if change.changed > 0, action == .checkNow || action == .resume { crawlers.notify() }
        return change
    }
}

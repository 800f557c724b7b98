import Store
import Synchronization

/// Whether the first account exists yet. Remembered once true, so later requests skip the count query.
final class SetupState: Sendable {
    let database: Database
    private let done = Atomic<Bool>(false)

    init(database: Database) { self.database = database }

    func isSetUp() throws -> Bool {
        if done.load(ordering: .relaxed) { return true }
        let isDone = try database.userCount() > 0
        if isDone { done.store(true, ordering: .relaxed) }
        return isDone
    }
}

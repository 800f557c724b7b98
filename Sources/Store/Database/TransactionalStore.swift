/// A store that can run several statements as one transaction: the pooled `Database`. A caller that
/// must write two things or neither (email settings and their password, the first admin, a password
/// change) takes `some AccountStore & TransactionalStore` and stays off the rest of Store.
///
/// The transaction's body gets the transaction's `Connection`, which is every aggregate at once: what
/// runs inside is the few statements of one change, written beside the call.
public protocol TransactionalStore: Queryable, Sendable {
    func withTransaction<T>(isolation: TransactionIsolation, _ body: (Connection) throws -> T) throws -> T
}

extension TransactionalStore {
    /// A read-committed transaction, the default `Database.withTransaction` runs.
    public func withTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try withTransaction(isolation: .readCommitted, body)
    }
}

extension Database: TransactionalStore {}

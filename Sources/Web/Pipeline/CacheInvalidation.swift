/// A change made through the app shows at once to whoever made it: nothing cached (the overview,
/// session lookups) may hide it, even before the database's notification of it arrives (`ChangeFeed`).
struct CacheInvalidation: WebMiddleware {
    let changes: ChangeFeed

    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse {
        if request.isSafeMethod { return try next(request, context) }
        changes.dataChanged()
        changes.accountsChanged()
        // Again after the change, so a lookup racing with it cannot keep the old answer.
        defer {
            changes.ownDataChanged()
            changes.accountsChanged()
        }
        return try next(request, context)
    }
}

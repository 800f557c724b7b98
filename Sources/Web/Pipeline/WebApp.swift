import Foundation
import Store

/// The dashboard and its API as one responder: `respond` takes a request and returns a response,
/// blocking on the database as needed (the HTTP server runs it on its worker pool). The work is done
/// by the request path (`Pipeline`): routing, then SetupGate, Authentication, CSRF, CacheInvalidation
/// and ErrorPages, then the route's handler.
public final class WebApp: Sendable {
    public let database: Database
    public let configuration: WebConfiguration
    let metrics: WebMetrics
    /// When cached answers go out of date; caches are used only while it is live (`startChangeFeed`).
    public let changes: ChangeFeed
    let services: WebServices
    let pipeline: Pipeline

    public init(database: Database, configuration: WebConfiguration = WebConfiguration(), metrics: WebMetrics = WebMetrics()) {
        let changes = ChangeFeed()
        let services = WebServices(database: database, configuration: configuration, changes: changes)
        self.database = database
        self.configuration = configuration
        self.metrics = metrics
        self.changes = changes
        self.services = services
        self.pipeline = Pipeline(
            router: WebApp.routes(),
            steps: [SetupGate(setup: services.setup), Authentication(sessions: services.sessions, database: database),
                    CSRF(), CacheInvalidation(changes: changes), ErrorPages()],
            endpoint: { request, state in
                try state.route.handler(RequestContext(
                    request: request, parameters: state.parameters, viewer: state.handlerViewer, form: state.form,
                    now: state.now, requestID: state.requestID, isSecure: state.isSecure, database: database,
                    configuration: configuration, services: services))
            },
            isSecure: { request in
                request.isSecure || configuration.secureCookies
                    || (configuration.trustForwardedProto && request.header("x-forwarded-proto") == "https")
            })
    }

    /// Listens for changes made by other processes, so the overview and session lookups can be
    /// cached (`serve` calls this; without it nothing is cached).
    public func startChangeFeed() { changes.start(database: database) }

    public func stopChangeFeed() { changes.stop() }

    public func respond(_ request: WebRequest) -> WebResponse { pipeline.respond(request) }
}

/// What handlers share, built once with the app: sessions, the setup state, the login limiter and
/// the overview's cache, all kept current by the change feed.
final class WebServices: Sendable {
    let sessions: Sessions
    let setup: SetupState
    let limiter = LoginLimiter()
    let changes: ChangeFeed
    /// The overview's content per role and query (everything but the per-user header), valid until
    /// domains, checks or alerts change and at most `overviewCacheLifetime` old.
    let overviewCache: GenerationCache<SharedPage>

    init(database: Database, configuration: WebConfiguration, changes: ChangeFeed) {
        self.changes = changes
        self.sessions = Sessions(database: database, changes: changes, cacheLifetime: configuration.sessionCacheLifetime)
        self.setup = SetupState(database: database)
        self.overviewCache = GenerationCache(ttl: configuration.overviewCacheLifetime)
    }
}

/// Apps and their links to domains: an Apple and/or Android app, the domains it claims per service
/// and platform, its watched URLs, the channels routed to it (tables `apps`, `app_apple_ids`,
/// `app_fingerprints`, `app_links`, `app_watched_urls`, `channel_apps`).
///
/// The sixth of Store's aggregates. Creating or editing an app also registers the domains it claims
/// and puts the app's IDs on them as expectations (`expected_app_ids`, `watched_urls`), in the same
/// transaction: an app is never half registered.
public protocol AppStore: Queryable {}

extension Database: AppStore {}
extension Connection: AppStore {}

import Foundation
import Vocabulary

/// What one check asks of each platform a domain is watched for; a platform left nil is not asked
/// at all (no request for its file, its copy or its comparisons).
public struct PlatformRequest: Sendable {
    /// Apple's plan: the AASA, Apple's CDN, the comparisons.
    public var apple: PlatformPlan?
    /// Android's: assetlinks.json, Google's API, the comparisons.
    public var android: AndroidRequest?

    public init(apple: PlatformPlan? = nil, android: AndroidRequest? = nil) {
        self.apple = apple
        self.android = android
    }
}

/// Android's part of a `PlatformRequest`: its plan, and what its answer is judged against.
public struct AndroidRequest: Sendable {
    public var plan: PlatformPlan
    /// The Android apps the file must verify.
    public var expectations: [AndroidAppExpectation]
    /// How long ago the origin's file last changed, when the history knows it (Google's copy may lag).
    public var originChangedSecondsAgo: Double?

    public init(plan: PlatformPlan, expectations: [AndroidAppExpectation], originChangedSecondsAgo: Double?) {
        self.plan = plan
        self.expectations = expectations
        self.originChangedSecondsAgo = originChangedSecondsAgo
    }
}

/// The checks one `PlatformRequest` made: one per platform asked, nil for the others.
public struct FetchedPlatforms: Sendable {
    public var apple: AppleCheck?
    public var android: AndroidCheck?

    public init(apple: AppleCheck? = nil, android: AndroidCheck? = nil) {
        self.apple = apple
        self.android = android
    }
}

extension Fetcher {
    /// One check of `host` for the platforms `request` asks: the one place that decides how they are
    /// fetched together. Both: on one DNS answer, Android's requests riding on the AASA fetch's
    /// connection (`checkPlatforms`). Android alone: the owner says the host publishes assetlinks.json,
    /// so none is a failure, and Android's own fetch reads the certificate when it is due.
    public func check(_ host: HostName, asking request: PlatformRequest) async -> FetchedPlatforms {
        switch (request.apple, request.android) {
        case (let apple?, let android?):
            let both = await checkPlatforms(host, android: android.expectations, originChangedSecondsAgo: android.originChangedSecondsAgo,
                                            apple: apple, androidPlan: android.plan)
            return FetchedPlatforms(apple: both.apple, android: both.android)
        case (let apple?, nil):
            return FetchedPlatforms(apple: await check(host, plan: apple))
        case (nil, let android?):
            return FetchedPlatforms(android: await checkAndroid(host, expectations: android.expectations, fileRequired: true,
                                                                originChangedSecondsAgo: android.originChangedSecondsAgo, plan: android.plan))
        case (nil, nil):
            return FetchedPlatforms()
        }
    }
}

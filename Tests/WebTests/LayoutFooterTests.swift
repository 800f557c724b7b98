import Testing
@testable import Web

/// Every page's footer says what the product watches: both platforms' files, not Apple's alone.
@Suite struct LayoutFooterTests {
    @Test func theFooterNamesBothPlatforms() throws {
        let page = Layout.page(title: "t", viewer: nil, active: .none, body: HTML.empty).rendered
        let footer = try #require(page.components(separatedBy: "<footer").last)
        #expect(footer.contains("apple-app-site-association"))
        #expect(footer.contains("assetlinks.json"))
    }
}

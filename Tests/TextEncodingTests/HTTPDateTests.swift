import Testing
import TextEncoding

struct HTTPDateTests {
    @Test func httpDateRoundTrips() {
        #expect(HTTPDate.string(epochSeconds: 784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784111777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("garbage") == nil)
    }
}

import Foundation
import Testing
import LocatedJSON

/// The pointer text is the same however the path was built: appended (one step waiting, or
/// materialized), pushed, or a mix, with `~` and `/` escaped per RFC 6901.
struct JSONPathTests {
    @Test func pointerIsTheSameWhicheverWayThePathWasBuilt() {
        let keys = ["applinks", "a/b", "~", "~1/", "", "é", "components"]
        for count in 0...keys.count {
            let steps = Array(keys.prefix(count))
            let expected = steps.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
                .joined()
            var appended = JSONPath.root
            var materialized = JSONPath.root
            var pushed = JSONPath.root
            for (index, key) in steps.enumerated() {
                appended = appended.appending(key)
                materialized = index % 2 == 0 ? materialized.appending(key).materialized() : materialized.appending(key)
                pushed.push(.key(key))
            }
            #expect(appended.pointer == expected)
            #expect(materialized.pointer == expected)
            #expect(pushed.pointer == expected)
            #expect(appended.appending(7).pointer == expected + "/7")
            var mixed = appended
            mixed.push(.index(3))
            mixed.push(.key("x/y"))
            #expect(mixed.pointer == expected + "/3/x~1y")
            mixed.pop()
            #expect(mixed.appending("z").pointer == expected + "/3/z")
        }
    }
}

import Testing
@testable import AASA

/// Query and fragment components (aasa-spec.md §7, §8.5).
struct QueryFragmentMatchingTests {
    typealias B = DocumentBuilder

    @Test func queryStringCoversTheWholeQuery() {
        #expect(B.matches("https://example.com/?a=1", B.rule(query: .string("a=1"))))
        #expect(!B.matches("https://example.com/?a=1&b=2", B.rule(query: .string("a=1"))), "whole query, not an item")
        #expect(B.matches("https://example.com/?a=1&b=2", B.rule(query: .string("a=1*"))))
        #expect(B.matches("https://example.com/", B.rule(query: .string(""))), "absent query is the empty string")
        #expect(B.matches("https://example.com/", B.rule(query: .string("*"))))
        #expect(!B.matches("https://example.com/", B.rule(query: .string("?*"))))
        #expect(!B.matches("https://example.com/?", B.rule(query: .string("?*"))), "empty query is empty")
        #expect(B.matches("https://example.com/?x#a?b", B.rule(query: .string("x"))), "query ends at #")
    }

    @Test func dictionaryItems() {
        let rule = B.rule(query: B.items(["articleNumber": "????"]))
        #expect(B.matches("https://example.com/?articleNumber=1234", rule))
        #expect(B.matches("https://example.com/?x=1&articleNumber=1234&y", rule), "unnamed items are ignored")
        #expect(!B.matches("https://example.com/?articleNumber=123", rule))
        #expect(!B.matches("https://example.com/", rule))
    }

    @Test func absentItemIsTheEmptyString() {
        #expect(B.matches("https://example.com/?a=1", B.rule(query: B.items(["b": "*"]))))
        #expect(B.matches("https://example.com/?a=1", B.rule(query: B.items(["b": ""]))))
        #expect(!B.matches("https://example.com/?a=1", B.rule(query: B.items(["b": "?*"]))))
        #expect(B.matches("https://example.com/?b", B.rule(query: B.items(["b": ""]))), "item without = has an empty value")
        #expect(!B.matches("https://example.com/?b", B.rule(query: B.items(["b": "?*"]))))
    }

    @Test func everyRepeatedItemMustMatch() {
        let rule = B.rule(query: B.items(["id": "42"]))
        #expect(!B.matches("https://example.com/?id=7&id=42", rule))
        #expect(!B.matches("https://example.com/?id=42&id=7", rule))
        #expect(B.matches("https://example.com/?id=42&id=42", rule))
        #expect(!B.matches("https://example.com/?id=42,7", rule), "values are not split or joined")
    }

    @Test func allNamedItemsMustHold() {
        let rule = B.rule(query: B.items(["a": "1", "b": "2"]))
        #expect(B.matches("https://example.com/?b=2&a=1", rule))
        #expect(!B.matches("https://example.com/?a=1&b=3", rule))
    }

    @Test func voidedOrEmptyDictionaryConstrainsNothing() {
        #expect(B.matches("https://example.com/x?anything", B.rule("/x", query: .voided)))
        #expect(!B.matches("https://example.com/y?anything", B.rule("/x", query: .voided)), "the path still applies")
        #expect(B.matches("https://example.com/x?anything", B.rule("/x", query: .items([]))))
    }

    @Test func queryItemsAndPercentEncoding() {
        #expect(B.matches("https://example.com/?q=caf%C3%A9", B.rule(query: B.items(["q": "caf%C3%A9"]))))
        #expect(!B.matches("https://example.com/?q=caf%C3%A9", B.rule(query: B.items(["q": "café"]))))
        #expect(B.matches("https://example.com/?q=caf%C3%A9", B.rule(query: B.items(["q": "café"]), percentEncoded: false)))
        #expect(B.matches("https://example.com/?q=a+b", B.rule(query: B.items(["q": "a+b"]), percentEncoded: false)),
                "+ is not a space")
        #expect(B.matches("https://example.com/?na%6De=1", B.rule(query: B.items(["name": "1"]))), "names compared decoded")
    }

    @Test func queryCaseFolding() {
        #expect(!B.matches("https://example.com/?q=ABC", B.rule(query: B.items(["q": "abc"]))))
        #expect(B.matches("https://example.com/?q=ABC", B.rule(query: B.items(["q": "abc"]), caseSensitive: false)))
        #expect(B.matches("https://example.com/?Q=ABC", B.rule(query: .string("q=abc"), caseSensitive: false)))
    }

    @Test func fragments() {
        #expect(B.matches("https://example.com/", B.rule(fragment: "*")), "absent fragment is the empty string")
        #expect(!B.matches("https://example.com/", B.rule(fragment: "?*")))
        #expect(B.matches("https://example.com/#coupon-1234", B.rule(fragment: "coupon-????")))
        #expect(!B.matches("https://example.com/#coupon-12345", B.rule(fragment: "coupon-????")))
        #expect(B.matches("https://example.com/#a#b", B.rule(fragment: "a#b")), "fragment is everything after the first #")
        #expect(B.matches("https://example.com/#/route/x", B.rule(fragment: "/route/*")), "single-page-app routes")
    }

    @Test func emptyRuleMatchesEverything() {
        #expect(B.matches("https://example.com/a/b?c=d#e", B.rule()))
        #expect(B.matches("https://example.com", B.rule()))
    }

    @Test func allSpecifiedComponentsMustMatch() {
        let rule = B.rule("/help/*", query: B.items(["articleNumber": "????"]), fragment: "top")
        #expect(B.matches("https://example.com/help/x?articleNumber=1234#top", rule))
        #expect(!B.matches("https://example.com/help/x?articleNumber=1234", rule))
        #expect(!B.matches("https://example.com/nohelp/x?articleNumber=1234#top", rule))
    }
}

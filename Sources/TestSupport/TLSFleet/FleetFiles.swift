/// The association files the fleet serves, public so tests can compare what they got.
public enum FleetFiles {
    public static let appID = "ABCDE12345.com.example.fleet"

    /// A small valid file.
    public static let good: [UInt8] = Array("""
        {"applinks":{"details":[{"appIDs":["\(appID)"],"components":[{"/":"/products/*","comment":"product pages"}]}]},
         "webcredentials":{"apps":["\(appID)"]}}

        """.utf8)

    /// Valid, but opens other paths than `good`: the "other" file of the disagreeing and stale scenarios.
    public static let previous: [UInt8] = Array("""
        {"applinks":{"details":[{"appIDs":["\(appID)"],"components":[{"/":"/old-products/*"}]}]},
         "webcredentials":{"apps":["\(appID)"]}}

        """.utf8)

    /// `good` with different formatting and key order: behaves the same.
    public static let goodReformatted: [UInt8] = Array("""
        {
          "webcredentials": { "apps": ["\(appID)"] },
          "applinks": { "details": [ { "components": [ { "comment": "product pages", "/": "/products/*" } ], "appIDs": ["\(appID)"] } ] }
        }

        """.utf8)

    /// Terminal control sequences where a hostile site can put them: raw in keys and values (ESC,
    /// BEL, CR, C1 CSI U+009B, bidi override U+202E), and as JSON escapes. Readable despite them.
    public static let hostile: [UInt8] = Array("""
        {"applinks":{"details":[{"appIDs":["\(appID)"],"components":[{"/":"/x\u{1B}[2J\u{07}*",\
        "comment":"\\u001b]0;pwned\\u0007 \\r\u{9B}31m \u{202E}txt.exe"}]}],\
        "\u{1B}[2J\u{202E}key\r":1},"webcredentials":{"apps":["\(appID)"]}}

        """.utf8)

    public static let invalid: [UInt8] = Array(#"{"applinks": {"details": [ {"appIDs": ["A.b"], } ] }"#.utf8)

    public static let spaPage: [UInt8] = Array("<!doctype html><html><head><title>Shop</title></head><body><div id=app></div></body></html>\n".utf8)

    /// A valid file of about 200 KB (over Apple's 128 KB limit): few rules with long comments, so
    /// the size is what matters, not the rule count.
    public static let large: [UInt8] = {
        let filler = String(repeating: "This comment only makes the file large. ", count: 50)
        var components: [String] = []
        var size = 0
        var i = 0
        while size < 200 * 1024 {
            let item = #"{"/":"/catalogue/section-\#(i)/*","comment":"\#(filler)"}"#
            components.append(item)
            size += item.utf8.count + 1
            i += 1
        }
        return Array(#"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[\#(components.joined(separator: ","))]}]}}"#.utf8)
    }()

    /// Big enough that gzip is worth it.
    public static let compressible: [UInt8] = {
        let components = (0..<200).map { #"{"/":"/store/\#($0)/*"}"# }.joined(separator: ",")
        return Array(#"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":[\#(components)]}]}}"#.utf8)
    }()
}

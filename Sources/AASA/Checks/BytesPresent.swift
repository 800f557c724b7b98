/// Which bytes that pattern checks look for occur in a pattern, found in one pass.
struct BytesPresent {
    var ampersand = false
    var equals = false
    var dollar = false
    var percent = false
    var hash = false
    var question = false
    var colon = false
    var nonASCII = false
    /// A byte at or below 0x20 (space and controls) or 0x7F.
    var controlOrSpace = false

    init(_ bytes: [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): ampersand = true
            case UInt8(ascii: "="): equals = true
            case UInt8(ascii: "$"): dollar = true
            case UInt8(ascii: "%"): percent = true
            case UInt8(ascii: "#"): hash = true
            case UInt8(ascii: "?"): question = true
            case UInt8(ascii: ":"): colon = true
            case 0x80...: nonASCII = true
            case ...0x20, 0x7F: controlOrSpace = true
            default: break
            }
        }
    }
}

/// Text is matched as arrays of code points ("units"). Encoded URL text is ASCII, so there a unit is
/// a byte; decoded text (`percentEncoded: false`) is Unicode, so there `?` counts code points
/// (aasa-spec.md §8.2). Wildcards are stored in the same arrays as values no code point can take.
enum PatternUnit {
    /// `*`: zero or more units.
    static let star: UInt32 = 0xFFFF_FFFF
    /// `?`: exactly one unit.
    static let anyOne: UInt32 = 0xFFFF_FFFE

    static func units(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value)
    }

    static func units<S: Sequence>(_ text: S) -> [UInt32] where S.Element == UInt8 {
        text.map { UInt32($0) }
    }

    static let slash = UInt32(UInt8(ascii: "/"))
}

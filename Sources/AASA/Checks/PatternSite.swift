import LocatedJSON

/// A pattern string as written in the file, with what it is matched against and where it is.
struct PatternSite {
    enum Kind {
        case path, query, fragment, queryItemName, queryItemValue
    }

    var text: String
    var kind: Kind
    var path: JSONPath
    var position: TextPosition
    /// A legacy `paths` string (no `NOT ` warning; always percent-encoded matching).
    var legacy = false
}

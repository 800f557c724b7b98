/// Escaping of text for markup: HTML pages and email bodies, and the JUnit XML report. One loop, so
/// the five characters that matter cannot be escaped one way here and another way there.
public enum MarkupEscaping {
    /// Text or a double-quoted attribute value in HTML: `& < > " '` become references.
    public static func html(_ text: String) -> String {
        var out = ""
        html(text, into: &out)
        return out
    }

    /// `html(text)` appended to `out`, without an intermediate string (pages are built by appending).
    public static func html(_ text: String, into out: inout String) {
        // Fast path: most text (host names, dates) has nothing to escape.
        var needs = false
        for b in text.utf8 where b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27 {
            needs = true
            break
        }
        guard needs else { out += text; return }
        escape(text, into: &out, xml: false)
    }

    /// Text for an XML 1.0 attribute or element. Newline, tab and carriage return become character
    /// references (an attribute keeps them instead of normalising them to spaces); characters XML 1.0
    /// cannot carry at all (other controls, U+FFFE, U+FFFF — from a hostile server's header or body
    /// quoted in a message) become U+FFFD, so the document always parses.
    public static func xml(_ text: String) -> String {
        var out = ""
        escape(text, into: &out, xml: true)
        return out
    }

    private static func escape(_ text: String, into out: inout String, xml: Bool) {
        out.reserveCapacity(out.utf8.count + text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // &#39; rather than &apos; in HTML: &apos; is not an HTML 4 entity, and old mail clients render it raw.
            case "'": out += xml ? "&apos;" : "&#39;"
            case "\n" where xml: out += "&#10;"
            case "\t" where xml: out += "&#9;"
            case "\r" where xml: out += "&#13;"
            default:
                guard xml else { out.unicodeScalars.append(scalar); continue }
                // Swift strings hold no surrogates, so only the controls and the two non-characters remain.
                let v = scalar.value
                let allowed = v >= 0x20 && v != 0xFFFE && v != 0xFFFF
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
    }
}

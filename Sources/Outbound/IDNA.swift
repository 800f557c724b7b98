import CIDN2

/// Host names between their Unicode and ASCII (punycode) forms, with libidn2: IDNA2008 with UTS #46
/// non-transitional mapping and NFC input, the way browsers, Apple's stack and curl itself treat
/// `bücher.example`. Nothing converts labels by hand.
public enum IDNA {
    /// The ASCII form (labels already ASCII stay as they are); the reason in libidn2's words when `name` is no valid IDN name.
    public static func ascii(_ name: String) -> Result<String, IDNAError> {
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        let rc = idn2_to_ascii_8z(name, &output, flags)
        guard rc == Int32(IDN2_OK.rawValue), let output else {
            return .failure(IDNAError(reason: idn2_strerror(rc).map { String(cString: $0) } ?? "code \(rc)"))
        }
        defer { idn2_free(output) }
        return .success(String(cString: output))
    }
}

public struct IDNAError: Error, Hashable, Sendable {
    public var reason: String
}

import CIDN2
import Vocabulary

/// libidn2's IDNA2008 conversion with UTS #46 non-transitional mapping, the way browsers and Apple's
/// stack treat `bücher.example` (ß stays ß: `faß.de` is `xn--fa-hia.de`, not `fass.de`).
public struct LibIDN2: IDNAConversion, Sendable {
    public init() {}

    public func toASCII(_ name: String) throws(IDNAFailure) -> String {
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        let rc = idn2_to_ascii_8z(name, &output, flags)
        guard rc == Int32(IDN2_OK.rawValue), let output else {
            throw IDNAFailure(reason: idn2_strerror(rc).map { String(cString: $0) } ?? "code \(rc)")
        }
        defer { idn2_free(output) }
        return String(cString: output)
    }

    public func toUnicode(_ ascii: String) -> String? {
        var output: UnsafeMutablePointer<CChar>?
        guard idn2_to_unicode_8z8z(ascii, &output, 0) == Int32(IDN2_OK.rawValue), let output else { return nil }
        defer { idn2_free(output) }
        return String(cString: output)
    }
}

extension HostName {
    /// Validates and converts a host name as a person typed it, with libidn2 (see `HostName`).
    public init(_ input: String) throws(HostNameError) {
        try self.init(input, idna: LibIDN2())
    }
}

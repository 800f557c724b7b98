import CIDN2
import Outbound
import Vocabulary

/// libidn2's IDNA2008 conversion with UTS #46 non-transitional mapping, the way browsers and Apple's
/// stack treat `bücher.example` (ß stays ß: `faß.de` is `xn--fa-hia.de`, not `fass.de`).
public struct LibIDN2: IDNAConversion, Sendable {
    public init() {}

    /// Outbound's conversion, which is also the one that puts webhook and SMTP hosts in curl's form.
    public func toASCII(_ name: String) throws(IDNAFailure) -> String {
        switch IDNA.ascii(name) {
        case .success(let ascii): return ascii
        case .failure(let error): throw IDNAFailure(reason: error.reason)
        }
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

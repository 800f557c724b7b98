/// Extracts the attached content of a CMS/PKCS#7 SignedData message (RFC 5652), the iOS 8/9 form
/// of an association file made by `openssl smime -sign -nodetach -outform DER`. Only a walk over
/// the DER/BER structure: the signature is NOT verified (Apple deprecated signing in 2019, and a
/// monitor cannot know which key the site meant to sign with).
///
/// Accepts definite and indefinite (BER, `-stream`) lengths and a constructed (chunked) eContent
/// OCTET STRING. Never traps; nesting is bounded.
enum SignedDataUnwrapper {
    enum Outcome: Equatable {
        /// Not DER at all (does not start with a SEQUENCE tag): read it as JSON.
        case notSigned
        case content([UInt8])
        /// DER-looking bytes without attached content we could extract; the reason in words.
        case unreadable(String)
    }

    // 1.2.840.113549.1.7.2 id-signedData and 1.2.840.113549.1.7.1 id-data, DER content octets.
    private static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    private static let maxNesting = 32

    static func unwrap(_ bytes: [UInt8]) -> Outcome {
        guard let first = bytes.first, first == 0x30 else { return .notSigned }
        let der = DERReader(bytes: bytes)
        guard let contentInfo = der.element(at: 0), contentInfo.tag == 0x30 else {
            return .unreadable("The body starts like a DER structure but its length is invalid.")
        }
        let infoFields = der.children(of: contentInfo)
        guard infoFields.count >= 2, infoFields[0].tag == 0x06 else {
            return .unreadable("The body is DER but not a CMS ContentInfo (no content type).")
        }
        guard der.content(of: infoFields[0]) == signedDataOID[...] else {
            return .unreadable("The body is a CMS message but not SignedData (content type is not 1.2.840.113549.1.7.2).")
        }
        guard infoFields[1].tag == 0xA0, let signedData = der.children(of: infoFields[1]).first, signedData.tag == 0x30 else {
            return .unreadable("The CMS SignedData message has no content.")
        }
        // SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE, … }
        let signedFields = der.children(of: signedData)
        guard signedFields.count >= 3, signedFields[2].tag == 0x30 else {
            return .unreadable("The CMS SignedData message has no encapsulated content info.")
        }
        let encapsulated = der.children(of: signedFields[2])
        guard encapsulated.count >= 2, encapsulated[1].tag == 0xA0 else {
            return .unreadable("The CMS SignedData message is detached: the JSON is not inside the file.")
        }
        guard let octets = der.children(of: encapsulated[1]).first,
              let content = der.octetString(octets, depth: 0) else {
            return .unreadable("The CMS SignedData content is not an OCTET STRING.")
        }
        return .content(content)
    }
}

/// A bounds-checked reader of BER/DER tag-length-value elements over a byte array.
struct DERReader {
    struct Element {
        var tag: UInt8
        var contentStart: Int
        /// End of the content; for an indefinite length, where the end-of-contents marker starts.
        var contentEnd: Int
        /// End of the whole element, including an end-of-contents marker.
        var end: Int
    }

    let bytes: [UInt8]
    private let maxNesting = 32

    func element(at offset: Int, depth: Int = 0) -> Element? {
        guard depth < maxNesting, offset + 2 <= bytes.count else { return nil }
        let tag = bytes[offset]
        // Multi-byte tag numbers never occur in CMS; refuse rather than misparse.
        guard tag & 0x1F != 0x1F else { return nil }
        let lengthByte = bytes[offset + 1]
        var cursor = offset + 2
        if lengthByte == 0x80 {
            // Indefinite length (BER): only for constructed elements; children up to 00 00.
            guard tag & 0x20 != 0 else { return nil }
            var child = cursor
            while true {
                guard child + 2 <= bytes.count else { return nil }
                if bytes[child] == 0 && bytes[child + 1] == 0 {
                    return Element(tag: tag, contentStart: cursor, contentEnd: child, end: child + 2)
                }
                guard let inner = element(at: child, depth: depth + 1) else { return nil }
                child = inner.end
            }
        }
        var length = 0
        if lengthByte < 0x80 {
            length = Int(lengthByte)
        } else {
            let count = Int(lengthByte & 0x7F)
            guard count <= 4, cursor + count <= bytes.count else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard length <= bytes.count - cursor else { return nil }
        return Element(tag: tag, contentStart: cursor, contentEnd: cursor + length, end: cursor + length)
    }

    func children(of parent: Element) -> [Element] {
        guard parent.tag & 0x20 != 0 else { return [] }
        var out: [Element] = []
        var offset = parent.contentStart
        while offset < parent.contentEnd, let child = element(at: offset) {
            out.append(child)
            offset = child.end
        }
        return out
    }

    func content(of element: Element) -> ArraySlice<UInt8> {
        bytes[element.contentStart..<element.contentEnd]
    }

    /// A primitive OCTET STRING's bytes, or a constructed one's chunks joined (BER `-stream` output).
    func octetString(_ element: Element, depth: Int) -> [UInt8]? {
        guard depth < maxNesting else { return nil }
        if element.tag == 0x04 { return Array(content(of: element)) }
        guard element.tag == 0x24 else { return nil }
        var joined: [UInt8] = []
        for chunk in children(of: element) {
            guard let part = octetString(chunk, depth: depth + 1) else { return nil }
            joined += part
        }
        return joined
    }
}

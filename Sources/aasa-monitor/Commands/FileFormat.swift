import Vocabulary

/// Which association file some bytes are, judged by content: assetlinks.json is a JSON array,
/// apple-app-site-association an object (or a signed CMS message). Files are often saved without
/// their usual name, so the name is not consulted.
enum FileFormat {
    static func detect(_ bytes: [UInt8]) -> Platform {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        let first = rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "[") ? .android : .apple
    }
}

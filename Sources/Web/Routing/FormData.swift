/// A decoded form: an `application/x-www-form-urlencoded` body (or query string), or a
/// `multipart/form-data` one (`MultipartForm`), whose chosen files are kept apart as bytes.
public struct FormData: Sendable, Equatable {
    public struct Limits: Sendable {
        public var maxBytes: Int
        public var maxFields: Int
        /// Ordinary forms: a page of inputs.
        public static let form = Limits(maxBytes: 64 << 10, maxFields: 500)
        /// The URL tester takes a pasted association file, which Apple caps at 128 KB; percent-encoding
        /// can triple it.
        public static let pastedFile = Limits(maxBytes: 400 << 10, maxFields: 20)
        /// The app form carries an entitlements file and a manifest (each up to 128 KB of text, or a
        /// base64 binary property list), twice percent-encoded at worst.
        public static let appFiles = Limits(maxBytes: 800 << 10, maxFields: 30)
        public static let query = Limits(maxBytes: 8 << 10, maxFields: 50)
    }

    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case tooLarge(limit: Int)
        case tooManyFields(limit: Int)
        case malformed(field: String)
        case multipart(MultipartError)

        public var description: String {
            switch self {
            case .tooLarge: "the form is larger than \(sizeText)"
            case .tooManyFields(let limit): "the form has more than \(limit) fields"
            case .malformed(let field): "the field \(field) is not percent-encoded correctly"
            case .multipart(let error): "the upload could not be read: \(error)"
            }
        }

        /// The limit a `tooLarge` names, in KB from 1 KB up ("" for the other cases).
        var sizeText: String {
            guard case .tooLarge(let limit) = self else { return "" }
            return limit >= 1024 ? "\(limit >> 10) KB" : "\(limit) bytes"
        }
    }

    /// A file a file input sent, byte for byte (a binary property list stays binary).
    public struct File: Sendable, Equatable {
        public var name: String
        public var filename: String
        public var contentType: String?
        public var bytes: [UInt8]
    }

    public private(set) var fields: [(name: String, value: String)] = []
    /// Files chosen in file inputs (multipart forms only); an input left empty sends none.
    public private(set) var files: [File] = []

    public init(fields: [(name: String, value: String)] = [], files: [File] = []) {
        self.fields = fields
        self.files = files
    }

    public static func == (a: FormData, b: FormData) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            && a.files == b.files
    }

    /// The first file sent for `name`, nil when none was chosen.
    public func file(_ name: String) -> File? { files.first { $0.name == name } }

    /// A form body by its Content-Type: multipart when it says so, else URL-encoded (what a form
    /// without `enctype` sends, and what a missing Content-Type has always been read as here).
    public static func decode(_ body: [UInt8], contentType: String?, limits: Limits = .form) throws(DecodeError) -> FormData {
        guard let contentType else { return try decode(body, limits: limits) }
        let boundary: [UInt8]?
        do { boundary = try MultipartForm.boundary(contentType: contentType) } catch { throw .multipart(error) }
        guard let boundary else { return try decode(body, limits: limits) }
        guard body.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        let parts: [MultipartForm.Part]
        do {
            parts = try MultipartForm.parse(body, boundary: boundary, limits: MultipartForm.Limits(maxParts: limits.maxFields))
        } catch {
            throw .multipart(error)
        }
        var form = FormData()
        for part in parts {
            if let filename = part.filename {
                // An empty file input still sends a part, with no name and no bytes: no file was chosen.
                if !filename.isEmpty || !part.body.isEmpty {
                    form.files.append(File(name: part.name, filename: filename, contentType: part.contentType, bytes: part.body))
                }
            } else {
                form.fields.append((part.name, String(decoding: part.body, as: UTF8.self).replacingCRLF()))
            }
        }
        return form
    }

    /// The first value for `name`, nil when absent.
    public subscript(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Every value for `name`, in order (repeated inputs such as app IDs).
    public func all(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    public static func decode(_ body: [UInt8], limits: Limits = .form) throws(DecodeError) -> FormData {
        guard body.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var form = FormData()
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard form.fields.count < limits.maxFields else { throw .tooManyFields(limit: limits.maxFields) }
            let eq = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = String(decoding: pair[..<(eq ?? pair.endIndex)], as: UTF8.self)
            let rawValue = eq.map { String(decoding: pair[pair.index(after: $0)...], as: UTF8.self) } ?? ""
            guard let name = PercentEncoding.decode(rawName, plusAsSpace: true) else { throw .malformed(field: rawName) }
            guard let value = PercentEncoding.decode(rawValue, plusAsSpace: true) else { throw .malformed(field: name) }
            // Browsers send CRLF in textareas; normalise so stored text and comparisons agree.
            form.fields.append((name, value.replacingCRLF()))
        }
        return form
    }

    /// Encodes fields the way a browser would (for tests and redirects that carry a query).
    public func encoded() -> String {
        fields.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
    }
}

extension String {
    func replacingCRLF() -> String {
        guard utf8.contains(13) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        var previousCR = false
        for scalar in unicodeScalars {
            if previousCR && scalar != "\n" { out.unicodeScalars.append("\n") }
            if scalar == "\r" { previousCR = true; continue }
            previousCR = false
            out.unicodeScalars.append(scalar)
        }
        if previousCR { out.unicodeScalars.append("\n") }
        return out
    }
}

import LocatedJSON
import TextEncoding

extension GoogleStatementList {
    /// Google's statements rebuilt as a file and read by our own reader, so Google's copy compares with
    /// the origin's by behaviour (`AssetLinksDiff`: grants, packages, fingerprints, dynamic rules), not by
    /// bytes. The flattening (one statement per relation and fingerprint) does not change the behaviour.
    public var file: AssetLinksFile {
        var parts: [String] = []
        for statement in statements {
            let target: String
            if statement.namespace == "android_app", let package = statement.packageName, let fingerprint = statement.fingerprint {
                target = #"{"namespace":"android_app","package_name":\#(JSONStringLiteral.quoted(package)),"sha256_cert_fingerprints":[\#(JSONStringLiteral.quoted(fingerprint))]}"#
            } else if let site = statement.site {
                target = #"{"namespace":"web","site":\#(JSONStringLiteral.quoted(site))}"#
            } else {
                continue
            }
            var text = #"{"relation":[\#(JSONStringLiteral.quoted(statement.relation))],"target":\#(target)"#
            if let extensions = statement.relationExtensions {
                text += #","relation_extensions":{\#(JSONStringLiteral.quoted(statement.relation)):\#(extensions)}"#
            }
            parts.append(text + "}")
        }
        return AssetLinksReader.read(Array(("[" + parts.joined(separator: ",") + "]").utf8)).file ?? AssetLinksFile()
    }
}

import Foundation

/// The first look at a typed host: catches the usual paste mistakes (a URL, a port, an IP address)
/// with a message that says exactly which part to remove, before the name goes to the IDNA
/// conversion in Fetch.
public enum HostInput {
    public static func precheck(_ raw: String) -> Result<String, FieldMessage> {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .failure(FieldMessage("Enter a host name, e.g. example.com")) }
        if let range = text.range(of: "://") {
            let scheme = text[..<range.lowerBound]
            return .failure(FieldMessage("Enter the host name only, without \"\(scheme)://\": Apple always fetches the file over https from the host itself"))
        }
        var hostPart = Substring(text)
        if let slash = hostPart.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            let path = hostPart[slash...]
            return .failure(FieldMessage("Enter the host name only, without the path \"\(path)\": the association file always lives at /.well-known/apple-app-site-association"))
        }
        if hostPart.hasPrefix("[") || hostPart.filter({ $0 == ":" }).count >= 2 {
            return .failure(FieldMessage("\"\(text)\" is an IP address: associated domains are host names, and devices never fetch from IP addresses"))
        }
        if let colon = hostPart.lastIndex(of: ":") {
            let port = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
            return .failure(FieldMessage("Remove the port \":\(port)\": Apple fetches the file from port 443 only"))
        }
        let labels = hostPart.split(separator: ".")
        if labels.count == 4, labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            return .failure(FieldMessage("\"\(text)\" is an IP address: associated domains are host names, and devices never fetch from IP addresses"))
        }
        return .success(String(hostPart))
    }
}

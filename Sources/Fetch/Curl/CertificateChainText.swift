import CCurl
import CShim
import Foundation
import Vocabulary

/// The certificate chain as curl reports it with CURLOPT_CERTINFO: per certificate, lines of
/// `Name:value` in OpenSSL's text form. Only the leaf matters for the facts we keep.
struct CertificateChainText {
    var certificates: [[(name: String, value: String)]]

    init?(handle: UnsafeMutableRawPointer) {
        var raw: UnsafeMutableRawPointer?
        guard cshim_curl_getinfo_ptr(handle, CURLINFO_CERTINFO, &raw) == CURLE_OK, let raw else { return nil }
        let info = raw.assumingMemoryBound(to: curl_certinfo.self).pointee
        guard info.num_of_certs > 0, let lists = info.certinfo else { return nil }
        var certificates: [[(String, String)]] = []
        for i in 0..<Int(info.num_of_certs) {
            var lines: [(String, String)] = []
            var node = lists[i]
            while let current = node {
                if let data = current.pointee.data {
                    let line = String(cString: data)
                    if let colon = line.firstIndex(of: ":") {
                        lines.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
                    }
                }
                node = current.pointee.next
            }
            certificates.append(lines)
        }
        self.certificates = certificates
    }

    init(certificates: [[(name: String, value: String)]]) { self.certificates = certificates }

    func leafFacts() -> TLSFacts? {
        guard let leaf = certificates.first else { return nil }
        func field(_ name: String) -> String? { leaf.first { $0.name == name }?.value }
        let sans = field("X509v3 Subject Alternative Name").map { text in
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .map { $0.hasPrefix("DNS:") ? String($0.dropFirst(4)) : $0 }
        } ?? []
        return TLSFacts(trusted: false, subject: field("Subject"), subjectAltNames: sans,
                        issuer: field("Issuer"), notAfter: field("Expire date").flatMap(CertificateDate.date))
    }
}

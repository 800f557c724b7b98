import CCurl
import CShim
import Outbound
import Vocabulary

extension CurlTransfer {
    /// Reads what curl knows about the finished exchange and classifies `code` into a failure kind.
    func facts(result code: CURLcode) -> TransportFacts {
        var status = 0
        _ = cshim_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var facts = TransportFacts(
            location: request.location, url: request.url, status: status > 0 ? status : nil,
            headers: headers, body: body, decodedSize: decodedSize, bodyTruncated: truncated)
        facts.userAgent = request.userAgent
        facts.redirectTarget = string(CURLINFO_REDIRECT_URL) ?? headers["location"]
        facts.ipAddress = string(CURLINFO_PRIMARY_IP).flatMap { $0.isEmpty ? nil : $0 }
        facts.wireSize = Int(offset(CURLINFO_SIZE_DOWNLOAD_T))
        facts.timings = TransportTimings(
            dns: request.dnsSeconds,
            connect: seconds(CURLINFO_CONNECT_TIME_T),
            tls: seconds(CURLINFO_APPCONNECT_TIME_T),
            firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: seconds(CURLINFO_TOTAL_TIME_T))
        // curl reports the chain only after a completed handshake, so with verification on, a chain
        // here is a trusted one (a TLS failure below overrides it). A reused connection's comes from
        // the transfer that opened it.
        if request.wantCertificate,
           var certificate = connectionCertificate ?? CertificateChainText(handle: handle)?.leafFacts() {
            certificate.trusted = request.verifyPeer
            facts.tls = certificate
        }
        if code != CURLE_OK {
            facts.failure = failure(for: code)
            if facts.failure?.kind.isTLS == true {
                facts.tls = facts.tls ?? TLSFacts(trusted: false)
                facts.tls?.trusted = false
                facts.tls?.failureReason = facts.failure?.message
                facts.status = nil
            }
        }
        return facts
    }

    private func string(_ info: CURLINFO) -> String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard cshim_curl_getinfo_string(handle, info, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    private func offset(_ info: CURLINFO) -> curl_off_t {
        var value: curl_off_t = 0
        _ = cshim_curl_getinfo_off(handle, info, &value)
        return value
    }

    private func seconds(_ info: CURLINFO) -> Double { Double(offset(info)) / 1_000_000 }

    private func failure(for code: CURLcode) -> FetchFailure {
        let detail = errorMessage.isEmpty ? String(cString: curl_easy_strerror(code)) : errorMessage
        if let refused = easy.refusedAddress {
            return FetchFailure(kind: .addressRefused,
                                message: "refused to connect to \(refused): not one of the addresses the outbound policy checked")
        }
        if abortedTooLarge {
            return FetchFailure(kind: .tooLarge, message: "the body exceeded \(decodedSize - 1) bytes after decoding; stopped reading")
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return FetchFailure(kind: .dns, message: detail)
        case CURLE_COULDNT_CONNECT where detail.lowercased().contains("reset"):
            return FetchFailure(kind: .reset, message: "the connection was reset (\(detail))")
        case CURLE_COULDNT_CONNECT:
            return FetchFailure(kind: .refused, message: "the server refused the connection (\(detail))")
        case CURLE_OPERATION_TIMEDOUT:
            return FetchFailure(kind: .timeout, message: "no complete answer in time (\(detail))")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return tlsFailure(detail)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return FetchFailure(kind: .reset, message: "the connection was closed or reset mid-exchange (\(detail))")
        case CURLE_SSL_CONNECT_ERROR:
            if detail.lowercased().contains("reset") || detail.contains("SSL_ERROR_SYSCALL") {
                return FetchFailure(kind: .reset, message: "the connection was reset during the TLS handshake (\(detail))")
            }
            return FetchFailure(kind: .tlsUntrusted, message: "the TLS handshake failed (\(detail))")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return FetchFailure(kind: .notHTTPS, message: detail)
        default:
            return FetchFailure(kind: .other, message: "\(detail) (curl error \(code.rawValue))")
        }
    }

    /// OpenSSL's verify result says why a chain failed; curl's own host-name check reports through
    /// the message with a verify result of 0.
    private func tlsFailure(_ detail: String) -> FetchFailure {
        var verify = 0
        _ = cshim_curl_getinfo_long(handle, CURLINFO_SSL_VERIFYRESULT, &verify)
        let x509CertHasExpired = 10, x509NotYetValid = 9, x509HostnameMismatch = 62
        if detail.contains("subject name") || detail.contains("host name") || detail.contains("hostname") {
            return FetchFailure(kind: .tlsWrongHost, message: "the certificate is for another name (\(detail))")
        }
        switch verify {
        case x509CertHasExpired:
            return FetchFailure(kind: .tlsExpired, message: "the certificate has expired (\(detail))")
        case x509NotYetValid:
            return FetchFailure(kind: .tlsUntrusted, message: "the certificate is not valid yet (\(detail))")
        case x509HostnameMismatch:
            return FetchFailure(kind: .tlsWrongHost, message: "the certificate is for another name (\(detail))")
        default:
            return FetchFailure(kind: .tlsUntrusted, message: "the certificate chain is not trusted (\(detail))")
        }
    }
}

extension FetchFailure.Kind {
    var isTLS: Bool { self == .tlsUntrusted || self == .tlsExpired || self == .tlsWrongHost }
}

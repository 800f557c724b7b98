import Vocabulary
import AASA
import Foundation
import Store

enum SampleEvents {
    static func broken(alertID: Int64 = 42) -> NotificationEvent {
        NotificationEvent(
            kind: .alertOpened, occurredAt: Date(timeIntervalSince1970: 1_800_000_000), domainID: 7,
            domainHost: "xn--bcher-kva.example", domainDisplayName: "bücher.example", alertID: alertID,
            rule: "origin-unreachable", severity: .critical,
            title: "the apple-app-site-association file is unreachable <script>",
            detail: "Two checks in a row got no answer & devices cannot fetch the file.",
            findings: [Finding(code: "http-status", severity: .error, message: "The server answered 503 <b>.", hint: "Serve it with 200.")],
            diffSummary: ["applinks: /shop/* no longer opens ABCDE12345.com.example.app"],
            openedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }
}

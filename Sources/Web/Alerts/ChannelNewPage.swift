import Notify
import Store

/// `/channels/new`: first the kind (each with what it needs), then `/channels/new?kind=…`, the form
/// of that kind alone. Plain links and a plain form: it works without JavaScript.
enum ChannelNewPage {
    static func chooser(viewer: Viewer, error: String? = nil) -> HTML {
        var kinds: HTML = .empty
        for kind in ChannelKind.allCases {
            kinds.append("""
                <li class="card"><a href="/channels/new?kind=\(kind.rawValue)">\(kind.displayName)</a>\
                <span class="hint">\(kind.inputs.help)</span></li>
                """)
        }
        let problem: HTML = error.map { "<p class=\"flash flash-error\" role=\"alert\">\($0)</p>" } ?? .empty
        return Layout.page(title: "Add a channel", viewer: viewer, active: .settings, body: """
            <div class="page-head"><h1>Add a channel</h1><a class="button" href="/settings/channels">Back to channels</a></div>\
            \(problem)<h2>Choose its kind</h2><ul class="kinds">\(kinds)</ul>
            """)
    }

    static func render(_ form: ChannelForm, viewer: Viewer) -> HTML {
        Layout.page(title: "Add a channel: \(form.kind.displayName)", viewer: viewer, active: .settings, body: """
            <div class="page-head"><h1>Add a channel: \(form.kind.displayName)</h1><a class="button" href="/settings/channels">Back to channels</a></div>\
            <p class="hint">\(form.kind.inputs.help)</p>\
            <form method="post" action="/channels" class="card">\(form.fields(csrf: Layout.csrfField(viewer.csrf)))\
            <p><button type="submit" class="primary">Add channel</button></p></form>
            """)
    }
}

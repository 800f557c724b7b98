import Notify
import Store

/// `/channels/:id/edit`: a channel's recipient, URL, template and routing, changed in place
/// (rather than removed and added again, which would lose its delivery log).
enum ChannelEditPage {
    static func render(_ form: ChannelForm, channel: ChannelRecord, viewer: Viewer) -> HTML {
        let title = channel.name.isEmpty ? "\(channel.kind.displayName) channel \(channel.id)" : channel.name
        let fromFile: HTML = channel.targetTemplate == nil && channel.secretTemplate == nil ? .empty
            : "<p class=\"flash flash-info\">A config file manages this channel: the next <code>aasa-monitor apply</code> of that file sets it back to what the file says.</p>"
        return Layout.page(title: "Edit \(title)", viewer: viewer, active: .settings, body: """
            <div class="page-head"><h1>Edit \(title)</h1><a class="button" href="/settings/channels#channel-\(channel.id)">Back to channels</a></div>\
            \(fromFile)<p class="hint">\(channel.kind.inputs.help)</p>\
            <form method="post" action="/channels/\(channel.id)/edit" class="card">\(form.fields(csrf: Layout.csrfField(viewer.csrf)))\
            <p><button type="submit" class="primary">Save channel</button></p></form>
            """)
    }
}

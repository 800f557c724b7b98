import Notify
import Store

/// The sections with tables: users and API tokens, and notification channels. Each table stacks its
/// rows as cards on a phone (`.stack`, each cell led by its column's name), rather than hiding columns.
extension SettingsPage {
    static func usersAndTokens(_ m: SettingsModel, viewer: Viewer) -> HTML {
        let csrf = Layout.csrfField(viewer.csrf)
        var users: HTML = .empty
        for u in m.users {
            let remove: HTML = viewer.canChange && u.id != viewer.userID
                ? "<form method=\"post\" action=\"/users/\(u.id)/delete\" class=\"inline\" data-confirm=\"Remove this user?\">\(csrf)<button type=\"submit\" class=\"link\">Remove</button></form>"
                : .empty
            users.append("<tr><td data-label=\"Email\">\(u.email)</td><td data-label=\"Role\">\(u.role.label)</td>"
                         + "<td data-label=\"Since\">\(DisplayTime.date(u.created))</td><td class=\"actions\">\(remove)</td></tr>")
        }
        return """
            <section id="users"><h2>Users</h2><div class="table-wrap stack"><table><thead><tr><th>Email</th><th>Role</th><th>Since</th>\
            <th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>\(users)</tbody></table></div>\(userForm(m, csrf: csrf, change: viewer.canChange))</section>\
            \(tokens(m, viewer: viewer))
            """
    }

    static func userForm(_ m: SettingsModel, csrf: HTML, change: Bool) -> HTML {
        guard change else { return .empty }
        let err = errorText(m)
        // The values are Role's raw values, the ones createUser reads back; read-only first, the safer default.
        var roleOptions: HTML = .empty
        for role in [Role.readOnly, .admin] {
            let sel: HTML = m.values["role"] == role.rawValue ? " selected" : .empty
            roleOptions.append("<option value=\"\(role.rawValue)\"\(sel)>\(role.label)</option>")
        }
        return """
            <form method="post" action="/users" class="card">\(csrf)<h3>Add a user</h3>\
            <label for="user-email">Email</label><input type="email" id="user-email" name="email" value="\(m.values["email"] ?? "")">\(err("email"))\
            <label for="user-password">Password <span class="hint">— at least 10 characters</span></label>\
            <input type="password" id="user-password" name="password" autocomplete="new-password">\(err("password"))\
            <label for="role">Role</label><select id="role" name="role">\(roleOptions)</select>\(err("role"))\
            <p><button type="submit" class="primary">Add user</button></p></form>
            """
    }

    static func tokens(_ m: SettingsModel, viewer: Viewer) -> HTML {
        let csrf = Layout.csrfField(viewer.csrf)
        var rows: HTML = .empty
        for t in m.tokens {
            let revoke: HTML = viewer.canChange
                ? "<form method=\"post\" action=\"/tokens/\(t.id)/delete\" class=\"inline\" data-confirm=\"Revoke this token? Scripts using it stop working.\">\(csrf)<button type=\"submit\" class=\"link\">Revoke</button></form>"
                : .empty
            let used = t.lastUsed.map { DisplayTime.ago($0, now: m.now) } ?? "never"
            rows.append("<tr><td data-label=\"Name\">\(t.name)</td><td data-label=\"Created\">\(DisplayTime.date(t.created))</td>"
                        + "<td data-label=\"Last used\">\(used)</td><td class=\"actions\">\(revoke)</td></tr>")
        }
        let newToken: HTML = m.newToken.map {
            "<div class=\"flash flash-success\">New token (shown once, copy it now): <code class=\"mono\">\($0)</code></div>"
        } ?? .empty
        let form: HTML = viewer.canChange ? """
            <form method="post" action="/tokens" class="filters">\(csrf)<input type="text" name="name" placeholder="Token name, e.g. ci" aria-label="Token name" value="\(m.values["name"] ?? "")">\
            <button type="submit">Create token</button></form>\(errorText(m)("name"))
            """ : .empty
        let table: HTML = m.tokens.isEmpty ? "<p class=\"muted\">No tokens.</p>"
            : "<div class=\"table-wrap stack\"><table><thead><tr><th>Name</th><th>Created</th><th>Last used</th><th><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>\(rows)</tbody></table></div>"
        return """
            <section id="tokens"><h2>API tokens</h2><p class="muted">For scripts: <code>Authorization: Bearer TOKEN</code> on <code>/api/v1</code>.</p>\(newToken)\
            \(table)\(form)</section>
            """
    }

    /// The channels with their routing and last delivery, the way to add one (a form per kind, on
    /// its own page), and the switch for receivers on private networks.
    static func channels(_ m: SettingsModel, viewer: Viewer) -> HTML {
        let change = viewer.canChange
        var rows: HTML = .empty
        for c in m.channels {
            rows.append(channelRow(c, csrf: Layout.csrfField(viewer.csrf), change: change))
        }
        let table: HTML = m.channels.isEmpty ? "<p class=\"muted\">No channels yet: alerts are only shown here.</p>"
            : """
                <div class="table-wrap stack"><table><thead><tr><th>Channel</th><th>Target</th><th>Sends</th><th>State</th>\
                <th>Last delivery</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>\(rows)</tbody></table></div>
                """
        let add: HTML = change ? "<p><a class=\"button primary\" href=\"/channels/new\">Add a channel</a></p>" : .empty
        return """
            <section id="channels"><h2>Notification channels</h2>\(table)\(add)</section>\
            \(privateReceivers(m, csrf: Layout.csrfField(viewer.csrf), change: change))
            """
    }

    static func channelRow(_ c: SettingsModel.ChannelRow, csrf: HTML, change: Bool) -> HTML {
        let remove: HTML = change
            ? "<form method=\"post\" action=\"/channels/\(c.id)/delete\" class=\"inline\" data-confirm=\"Remove this channel?\">\(csrf)<button type=\"submit\" class=\"link\">Remove</button></form>"
            : .empty
        let test: HTML = change
            ? "<form method=\"post\" action=\"/channels/\(c.id)/test#channel-\(c.id)\" class=\"inline\">\(csrf)<button type=\"submit\" class=\"link\">Send test</button></form>"
            : .empty
        let edit: HTML = change ? "<a href=\"/channels/\(c.id)/edit\">Edit</a> " : .empty
        let name: HTML = c.name.isEmpty ? .empty : "<strong>\(c.name)</strong><br>"
        var row: HTML = """
            <tr id="channel-\(c.id)"><td data-label="Channel">\(name)\(c.kind)</td><td data-label="Target" class="mono">\(c.target)</td>\
            <td data-label="Sends">\(c.routing)</td><td data-label="State">\(c.enabled ? "enabled" : "disabled")</td>\
            <td data-label="Last delivery">\(c.lastDelivery)</td><td class="actions">\(edit)\(test)\(remove)</td></tr>
            """
        if let result = c.test {
            // Right under the channel, where the button was pressed; role=status reads it out.
            row.append("<tr class=\"test-result\"><td colspan=\"6\"><p role=\"status\" class=\"flash \(result.delivered ? "flash-success" : "flash-error")\">Test notification: \(result.summary)</p></td></tr>")
        }
        return row
    }

    static func privateReceivers(_ m: SettingsModel, csrf: HTML, change: Bool) -> HTML {
        let form: HTML
        if m.privateReceiversFromEnvironment {
            form = "<p>Private receivers are <strong>allowed</strong> by this server's environment (<code>AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1</code>); the environment decides, not this page.</p>"
        } else if change {
            form = """
                <form method="post" action="/settings/private-receivers">\(csrf)<label class="inline"><input type="checkbox" name="allow" value="1"\
                \(m.allowPrivateReceivers ? " checked" : "")> Allow receivers on this machine or a private network</label> \
                <button type="submit">Save</button></form>
                """
        } else {
            form = "<p>Private receivers are \(m.allowPrivateReceivers ? "allowed" : "refused").</p>"
        }
        return """
            <div class="card" id="private-receivers"><h3>Private receivers</h3>\(form)\
            <p class="hint">Channel URLs are typed by people, so by default the monitor refuses to send to loopback, private, \
            link-local and other internal addresses (a URL could otherwise reach this machine's own services or a cloud \
            metadata endpoint). Allow them when a receiver is deliberately internal: a bridge on this host, a compose service, \
            a self-hosted ntfy or Mattermost on the LAN. The SMTP server (Settings → General) follows the same switch. \
            The environment variable <code>AASA_MONITOR_ALLOW_PRIVATE_WEBHOOKS=1</code> turns it on for the whole server.</p></div>
            """
    }
}

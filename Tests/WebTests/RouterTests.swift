import Testing
@testable import Web

@Suite struct RouterTests {
    func router() -> Router<String> {
        var r = Router<String>()
        r.add("GET", "/domains/:id", "domain")
        r.add("GET", "/domains/new", "new")
        r.add("POST", "/domains", "create")
        r.add("GET", "/domains", "list")
        r.add("GET", "/static/*rest", "static")
        r.add("GET", "/", "home")
        r.add("DELETE", "/api/v1/domains/:id", "api-delete")
        return r
    }

    func name(_ m: Router<String>.Match) -> String? {
        if case .found(let h, _) = m { return h }
        return nil
    }

    @Test func literalBeatsParameterWhateverTheOrder() {
        #expect(name(router().match(method: "GET", path: "/domains/new")) == "new")
        guard case .found(let h, let p) = router().match(method: "GET", path: "/domains/17") else {
            Issue.record("no match"); return
        }
        #expect(h == "domain")
        #expect(p.id("id") == 17)
    }

    @Test func rootTrailingSlashAndHead() {
        #expect(name(router().match(method: "GET", path: "/")) == "home")
        #expect(name(router().match(method: "GET", path: "/domains/")) == "list")
        #expect(name(router().match(method: "HEAD", path: "/domains")) == "list")
    }

    @Test func wrongMethodIsNotNotFound() {
        guard case .methodNotAllowed(let allowed) = router().match(method: "PUT", path: "/domains") else {
            Issue.record("expected 405"); return
        }
        #expect(Set(allowed) == ["GET", "POST"])
        guard case .notFound = router().match(method: "GET", path: "/nothing/here") else {
            Issue.record("expected 404"); return
        }
    }

    @Test func parametersArePercentDecodedAndRestIsJoined() {
        guard case .found(_, let p) = router().match(method: "GET", path: "/domains/b%C3%BCcher") else {
            Issue.record("no match"); return
        }
        #expect(p["id"] == "bücher")
        #expect(p.id("id") == nil)
        guard case .found(_, let s) = router().match(method: "GET", path: "/static/css/app.css") else {
            Issue.record("no match"); return
        }
        #expect(s["rest"] == "css/app.css")
        #expect(name(router().match(method: "GET", path: "/domains/%ZZ")) == nil)
    }
}

#!/usr/bin/env python3
"""Screenshots of the dashboard's pages through headless Chromium, driven over WebDriver's JSON protocol.

    scripts/screenshots.py BASE_URL EMAIL PASSWORD [OUT_DIR]

Logs in through the form like a person, then saves one PNG per page and size in OUT_DIR
(artifacts/screenshots): NAME.png on a 1366x900 desktop, NAME-phone.png on a 390x844 phone (Chromium's
mobile emulation, pixel ratio 2). Env: SIZES (desktop,phone), DOMAIN and APP (the id or name of the
domain and the app to show; default 1). Needs Debian's chromium and chromium-driver (scripts/bootstrap --test)."""
import base64, json, os, socket, subprocess, sys, time, urllib.request

base, email, password = sys.argv[1:4]
out = sys.argv[4] if len(sys.argv) > 4 else "artifacts/screenshots"
os.makedirs(out, exist_ok=True)

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
driver = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def call(method, path, body=None):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"{}").get("value")

try:
    deadline = time.time() + 30
    while True:
        try:
            call("GET", "/status"); break
        except Exception:
            if time.time() > deadline: raise
            time.sleep(0.2)
    sizes = {"desktop": ("", {"args": ["--window-size=1366,900"]}),
             "phone": ("-phone", {"args": ["--window-size=390,844"],
                                  "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}}})}
    domain, app = os.environ.get("DOMAIN", "1"), os.environ.get("APP", "1")
    pages = [("overview", "/"), ("overview-failing", "/?state=failing"), ("register", "/domains/new"),
             ("domain", f"/domains/{domain}"), ("apps", "/apps"), ("app", f"/apps/{app}"), ("app-new", "/apps/new"),
             ("tester", "/tester"), ("alerts", "/alerts"), ("settings", "/settings"), ("settings-users", "/settings/users"),
             ("settings-channels", "/settings/channels"), ("settings-alerts", "/settings/alerts"), ("channel-new", "/channels/new"),
             ("channel-new-slack", "/channels/new?kind=slack")]
    for size in os.environ.get("SIZES", "desktop,phone").split(","):
        suffix, options = sizes[size]
        args = ["--headless=new", "--disable-gpu", "--hide-scrollbars"] + options["args"]
        if os.geteuid() == 0: args.append("--no-sandbox")
        chrome = dict(options, args=args)
        sid = call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": chrome}}})["sessionId"]
        def go(url): call("POST", f"/session/{sid}/url", {"url": base + url})
        def find(css): return list(call("POST", f"/session/{sid}/element", {"using": "css selector", "value": css}).values())[0]
        def type_(css, text): call("POST", f"/session/{sid}/element/{find(css)}/value", {"text": text})
        def click(css): call("POST", f"/session/{sid}/element/{find(css)}/click", {})
        def shot(name):
            path = os.path.join(out, name + suffix + ".png")
            open(path, "wb").write(base64.b64decode(call("GET", f"/session/{sid}/screenshot")))
            print("saved", path)
        go("/login"); shot("login")
        type_("#email", email); type_("#password", password); click("button[type=submit]")
        for name, url in pages:
            go(url); shot(name)
        if size == "desktop":
            # The domain page is long: a full-height capture too.
            go(f"/domains/{domain}")
            height = call("POST", f"/session/{sid}/execute/sync", {"script": "return document.body.scrollHeight", "args": []})
            call("POST", f"/session/{sid}/window/rect", {"width": 1366, "height": min(int(height) + 40, 6000)})
            shot("domain-full")
        call("DELETE", f"/session/{sid}")
finally:
    driver.terminate()
    driver.wait()

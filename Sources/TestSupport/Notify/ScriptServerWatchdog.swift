/// Python shared by the test servers: exit when the test process that started us is gone, so a
/// crashed test run leaves no server behind.
let parentWatchdogPython = """
import os, signal, threading, time

# The parent may start us with SIGTERM blocked or ignored (inherited from the test runner): a
# stop must end the server at once, so take SIGTERM back explicitly.
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

def watch_parent():
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)

threading.Thread(target=watch_parent, daemon=True).start()

def write_port(directory, port):
    tmp = os.path.join(directory, ".port")
    with open(tmp, "w") as f:
        f.write(str(port))
    os.rename(tmp, os.path.join(directory, "port"))

def write_record(directory, record):
    import json, uuid
    name = "%020d-%s.json" % (time.time_ns(), uuid.uuid4().hex[:8])
    tmp = os.path.join(directory, "records", "." + name)
    with open(tmp, "w") as f:
        json.dump(record, f)
    os.rename(tmp, os.path.join(directory, "records", name))
"""

/// The HTTP loop both recording receivers share (webhook and provider): argv, the per-test settings
/// files, reading and recording a request, answering, and the threaded server. Each receiver adds
/// only its handler's decisions.
let recordingHTTPServerPython = parentWatchdogPython + #"""

import base64, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

directory, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])

def setting(name, default):
    try:
        with open(os.path.join(directory, name)) as f:
            return type(default)(f.read().strip())
    except (OSError, ValueError):
        return default

class RecordingHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    # Arrival time, lower-cased headers and the body, as the records keep them.
    def read_request(self):
        received = time.time()
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        return received, {k.lower(): v for k, v in self.headers.items()}, body

    def record(self, received, headers, body, status):
        write_record(directory, {
            "method": self.command, "path": self.path, "headers": headers,
            "body": base64.b64encode(body).decode("ascii"), "received_at": received, "status": status,
        })

    def answer(self, status, data, content_type=None, extra=()):
        self.send_response(status)
        for k, v in extra:
            self.send_header(k, v)
        if content_type:
            self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass

class Server(ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True
    request_queue_size = 128

def serve(handler):
    server = Server((host, port), handler)
    write_port(directory, server.server_address[1])
    server.serve_forever()
"""#

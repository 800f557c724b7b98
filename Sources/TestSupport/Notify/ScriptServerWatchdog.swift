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

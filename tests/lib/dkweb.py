"""Debian's headless chromium driven by Debian's chromedriver over the W3C WebDriver protocol
(plain HTTP through urllib): what the browser tests share."""
import json, subprocess, time, urllib.request

from dkcheck import free_port


class Driver:
    """One chromedriver and one headless chromium session with its profile in `profile`."""

    def __init__(self, profile, window="1024,768"):
        self.port = free_port()
        self.proc = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while True:
            try:
                self.call("GET", "/status"); break
            except OSError:
                if time.time() > deadline: raise
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={window}",
                     f"--user-data-dir={profile}"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())["value"]

    def s(self, method, path, body=None):
        """A call within this session."""
        return self.call(method, f"/session/{self.session}{path}", body)

    def open(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *a):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(a)})

    def quit(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.proc.terminate(); self.proc.wait(10)

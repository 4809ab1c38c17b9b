"""What the benchmark scripts under scripts/ and the remote view's tests share: a `dialkiosk`
process whose journal (and, asked, event lines) are collected on threads, a mosquitto broker on
loopback, a control-socket client that times the loop's answers, and readings of a process from
/proc. Standard library only; import with sys.dont_write_bytecode set (no __pycache__ in the clone)."""
import argparse
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time

from dkcheck import free_port  # noqa: F401  (the benchmarks' free port is the tests' own)


def arguments(description, size=None):
    """A benchmark's argument parser with the options every benchmark takes: --binary (the release
    build by default) and, given a default `size`, the virtual display's --size."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", default=".build/release/dialkiosk", help="the dialkiosk to measure")
    if size:
        parser.add_argument("--size", default=size, help="the virtual display's size, WIDTHxHEIGHT")
    return parser


class Kiosk:
    """`command` (a `dialkiosk run ...`) started with its standard error collected in `log`, and
    with `events=True` its standard output's event lines (JSON) in `events`. Waits until the
    control socket `control` exists or a journal line contains `ready`; a kiosk that does not
    get there ends the script, with its journal's tail."""

    def __init__(self, command, control=None, ready=None, env=None, events=False, name="bench", wait=30):
        self.control = control
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE if events else subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
        self.log, self.events = [], []
        threading.Thread(target=self._read_log, daemon=True).start()
        if events:
            threading.Thread(target=self._read_events, daemon=True).start()
        deadline = time.monotonic() + wait
        while not self._ready(ready):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                time.sleep(0.2)  # the reader's last lines
                sys.exit(f"{name}: the kiosk did not start: " + "".join(self.log)[-2000:])
            time.sleep(0.02)

    def _ready(self, ready):
        if self.control and not os.path.exists(self.control):
            return False
        return ready is None or any(ready in line for line in self.log)

    def _read_log(self):
        for line in self.process.stderr:
            self.log.append(line)

    def _read_events(self):
        for line in self.process.stdout:
            try:
                self.events.append(json.loads(line))
            except ValueError:
                pass

    @property
    def pid(self):
        return self.process.pid

    def stop(self, timeout=20):
        """SIGTERM, then waits for the exit and the readers' last lines."""
        self.process.terminate()
        self.process.wait(timeout=timeout)
        time.sleep(0.2)


class Control:
    """A control-socket client that times how long the loop takes to answer."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.setblocking(False)
        self.pending = b""

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def round_trip(self, timeout=10):
        """Seconds until the kiosk answers an unknown command (its `error` line); None when it
        does not within `timeout`."""
        start = time.monotonic()
        self.send("nop")
        while True:
            ready, _, _ = select.select([self.sock], [], [], timeout)
            if not ready:
                return None
            self.pending += self.sock.recv(1 << 20)
            if b"unknown command" in self.pending:
                self.pending = b""
                return time.monotonic() - start


def mosquitto(work, name, port, output=False):
    """A mosquitto on 127.0.0.1:`port`, anonymous, no persistence, its configuration in `work`;
    returned once it accepts connections. `output`: its log on the process's stdout (text)."""
    conf = os.path.join(work, f"{name}.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    process = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.PIPE if output else subprocess.DEVNULL,
                               stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return process


def status_kb(pid, field):
    """A figure of /proc/PID/status in kB (VmRSS, VmHWM, RssAnon), 0 when it is not there."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User and system CPU time of the whole process so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

"""What the integration scripts under tests/ share: one pass/fail line per check, the list of
failures the script's exit status comes from, and a free loopback port for a server it starts.
Import with sys.dont_write_bytecode set (no __pycache__ in the clone)."""
import socket

failures = []


def check(ok, what):
    """Prints `ok   what` or `FAIL what`; a failure is kept in `failures`."""
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

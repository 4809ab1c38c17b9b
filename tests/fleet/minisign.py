#!/usr/bin/env python3
"""Fleet signatures against the real minisign (Debian's package; docs/fleet.md).

  1. a key pair made by `minisign -G` (password-protected, scrypt at minisign's cost) and a
     bundle made by `minisign -S -t 'dialkiosk-bundle serial:N ...'` and cat: `dialkiosk config
     verify` takes it (the kiosk's own check, FleetAcceptance);
  2. `dialkiosk config sign` with minisign's encrypted key (--password-file): `minisign -V`
     verifies the bundle's first four lines against the rest and prints its trusted comment;
  3. `dialkiosk config keygen` with a password: `minisign -S` signs with that key, and
     `minisign -V` checks with its public key;
  4. refused, each with the reason named: a wrong password, a truncated secret key, a truncated
     public key, a trusted comment edited after signing, a bundle by a key id not trusted.
Usage: tests/fleet/minisign.py [--binary .build/debug/dialkiosk]
Exit 0 when every check holds, 1 otherwise.
"""
import argparse, os, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--binary", default=".build/debug/dialkiosk")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dk-minisign-")
failures = []

def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok: failures.append(what)

def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True)

def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f: f.write(data)
    return path

menu = write(f"{work}/menu.yaml", "items:\n  - {id: coffee, label: Coffee}\n  - {id: tea, label: Tea}\n")
password = write(f"{work}/password", "correct horse battery\n")

# 1. minisign's keys and signature, taken by the kiosk's check.
r = run(["minisign", "-G", "-p", f"{work}/ms.pub", "-s", f"{work}/ms.key"], stdin=b"correct horse battery\ncorrect horse battery\n")
check(r.returncode == 0, f"minisign -G makes an encrypted key pair ({r.stderr.decode().strip()[-80:]!r})")
r = run(["minisign", "-S", "-s", f"{work}/ms.key", "-m", menu, "-t", "dialkiosk-bundle serial:7 target:kiosk-a"],
        stdin=b"correct horse battery\n")
check(r.returncode == 0, "minisign -S signs the configuration with the trusted comment")
bundle = write(f"{work}/ms.bundle", open(menu + ".minisig", "rb").read() + open(menu, "rb").read())
r = run([binary, "config", "verify", "--key", f"{work}/ms.pub", bundle])
check(r.returncode == 0 and b"serial 7" in r.stdout and b"kiosk-a" in r.stdout,
      f"a minisign -S bundle is taken by the kiosk's check: {r.stdout.decode().strip()!r} {r.stderr.decode().strip()!r}")

# 2. config sign with minisign's key, checked by minisign -V.
r = run([binary, "config", "sign", "--key", f"{work}/ms.key", "--password-file", password, "--serial", "8",
         "--target", "kiosk-b", menu])
check(r.returncode == 0, f"config sign opens minisign's encrypted key ({r.stderr.decode().strip()!r})")
signed = r.stdout
lines = signed.split(b"\n")
write(f"{work}/dk.minisig", b"\n".join(lines[:4]) + b"\n")
write(f"{work}/dk.yaml", b"\n".join(lines[4:]))
check(open(f"{work}/dk.yaml", "rb").read() == open(menu, "rb").read(), "the bundle's text after its four signature lines is the file")
r = run(["minisign", "-V", "-p", f"{work}/ms.pub", "-m", f"{work}/dk.yaml", "-x", f"{work}/dk.minisig"])
check(r.returncode == 0 and b"Trusted comment: dialkiosk-bundle serial:8 target:kiosk-b" in r.stdout,
      f"minisign -V verifies a config sign bundle: {r.stdout.decode().strip()!r} {r.stderr.decode().strip()!r}")

# 3. config keygen's encrypted key used by minisign.
r = run([binary, "config", "keygen", "--out", f"{work}/dk", "--password-file", password])
check(r.returncode == 0 and os.stat(f"{work}/dk/fleet.key").st_mode & 0o777 == 0o600,
      f"config keygen writes an encrypted key, mode 0600 ({r.stderr.decode().strip()!r})")
r = run(["minisign", "-S", "-s", f"{work}/dk/fleet.key", "-m", menu, "-x", f"{work}/dk-key.minisig", "-t", "dialkiosk-bundle serial:9"],
        stdin=b"correct horse battery\n")
check(r.returncode == 0, f"minisign -S signs with config keygen's key and password ({r.stderr.decode().strip()!r})")
r = run(["minisign", "-V", "-p", f"{work}/dk/fleet.pub", "-m", menu, "-x", f"{work}/dk-key.minisig"])
check(r.returncode == 0, f"minisign -V verifies with config keygen's public key ({r.stderr.decode().strip()!r})")
r = run([binary, "config", "verify", "--key", f"{work}/dk/fleet.pub",
         write(f"{work}/dk-key.bundle", open(f"{work}/dk-key.minisig", "rb").read() + open(menu, "rb").read())])
check(r.returncode == 0, f"and the kiosk's check takes that bundle ({r.stderr.decode().strip()!r})")

# 4. Refusals, each naming what is wrong.
r = run([binary, "config", "sign", "--key", f"{work}/ms.key", "--password-file", write(f"{work}/wrong", "incorrect\n"),
         "--serial", "10", menu])
check(r.returncode == 65 and b"wrong password for this key" in r.stderr and not r.stdout,
      f"a wrong password: exit 65, named ({r.stderr.decode().strip()!r})")
key_lines = open(f"{work}/ms.key").read().split("\n")
write(f"{work}/cut.key", key_lines[0] + "\n" + key_lines[1][:100] + "\n")
r = run([binary, "config", "sign", "--key", f"{work}/cut.key", "--password-file", password, "--serial", "10", menu])
check(r.returncode == 65 and b"cut.key:2: a minisign secret key is 158 bytes, this one is 75 (truncated?)" in r.stderr,
      f"a truncated secret key: named ({r.stderr.decode().strip()!r})")
pub_lines = open(f"{work}/ms.pub").read().split("\n")
write(f"{work}/cut.pub", pub_lines[0] + "\n" + pub_lines[1][:40] + "\n")
r = run([binary, "config", "verify", "--key", f"{work}/cut.pub", bundle])
check(r.returncode == 65 and b"cut.pub:2: a minisign public key is 42 bytes, this one is 30 (truncated?)" in r.stderr,
      f"a truncated public key: named ({r.stderr.decode().strip()!r})")
edited = write(f"{work}/edited.bundle", open(bundle, "rb").read().replace(b"serial:7", b"serial:70", 1))
r = run([binary, "config", "verify", "--key", f"{work}/ms.pub", edited])
check(r.returncode == 65 and b"trusted comment does not verify" in r.stderr,
      f"a trusted comment edited after signing: refused, named ({r.stderr.decode().strip()!r})")
el = open(edited, "rb").read().split(b"\n")
write(f"{work}/edited.minisig", b"\n".join(el[:4]) + b"\n")
r = run(["minisign", "-V", "-p", f"{work}/ms.pub", "-m", menu, "-x", f"{work}/edited.minisig"])
check(r.returncode != 0 and b"Comment signature verification failed" in r.stderr, "minisign -V refuses the same edit")
r = run([binary, "config", "verify", "--key", f"{work}/dk/fleet.pub", bundle])
ms_id = pub_lines[0].split()[-1]
check(r.returncode == 65 and f"signed by key id {ms_id}, which is not a trusted key".encode() in r.stderr,
      f"a key id mismatch: refused, both ids named ({r.stderr.decode().strip()!r})")

print("minisign: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures)) + f" (work dir {work})")
sys.exit(1 if failures else 0)

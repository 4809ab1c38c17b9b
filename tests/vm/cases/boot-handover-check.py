#!/usr/bin/python3
"""Judges boot-handover's record (drmtool watch's watch.txt, phases.txt, the snapshots).

  boot-handover-check.py OUT_DIR

Prints "check ok WHAT", "check FAIL: WHAT" and "check figure WHAT" lines; the case turns them
into its verdict. The clock of watch.txt and phases.txt is CLOCK_MONOTONIC, which starts with
the kernel: a time in it is the time since kernel start.
"""
import os
import sys

out = sys.argv[1]
results = []


def check(ok, what):
    results.append(f"check {'ok' if ok else 'FAIL:'} {what}")
    return ok


def figure(what):
    results.append(f"check figure {what}")


sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import dkimage  # noqa: E402  (the one PNG and PPM reader of the Python tools)


def read_ppm(path):
    return dkimage.rgb(dkimage.read_ppm(path))


def max_channel_difference(a, b):
    wa, ha, pa = read_ppm(a)
    wb, hb, pb = read_ppm(b)
    if (wa, ha) != (wb, hb):
        return None
    # Compared in rows so a 3 MB picture stays quick in pure Python.
    worst, row = 0, wa * 3
    for y in range(ha):
        ra, rb = pa[y * row:(y + 1) * row], pb[y * row:(y + 1) * row]
        if ra != rb:
            worst = max(worst, max(abs(x - z) for x, z in zip(ra, rb)))
    return worst


# samples: (t, fb, mode, active, owner) per change; snaps: (fb, which) -> (black, file) in order.
samples, snaps, owner = [], [], {}
try:
    lines = open(os.path.join(out, "watch.txt")).read().splitlines()
except OSError:
    lines = []
for line in lines:
    f = line.split()
    if len(f) >= 8 and f[0] == "watch" and f[2] == "fb" and f[1][0].isdigit():
        samples.append({"t": float(f[1]), "fb": int(f[3]), "mode": f[5], "active": int(f[7])})
    elif len(f) == 5 and f[:2] == ["watch", "fb"] and f[3] == "owner":
        # The owner of the appearance just printed (ids are reused).
        if samples and samples[-1]["fb"] == int(f[2]):
            samples[-1]["owner"] = f[4]
    elif len(f) == 9 and f[:2] == ["watch", "snap"]:
        snaps.append({"fb": int(f[4]), "which": f[5], "black": f[7] == "1", "file": f[8]})
# Owners carried over samples that only changed mode/ACTIVE.
last = None
for s in samples:
    if "owner" not in s:
        s["owner"] = last["owner"] if last and last["fb"] == s["fb"] else "unknown"
    last = s
phases = {}
try:
    for line in open(os.path.join(out, "phases.txt")):
        name, t = line.split()
        phases[name] = float(t)
except OSError:
    pass

if not check(len(samples) > 0 and "phase2" in phases and "restart" in phases,
             f"a record ({len(samples)} changes) and the phase times ({phases})"):
    print("\n".join(results))
    sys.exit(0)

# The whole record: never inactive, one mode.
modes = sorted({s["mode"] for s in samples})
check(all(s["active"] == 1 for s in samples), "ACTIVE never 0 from the splash to the end")
check(len(modes) == 1 and modes[0] != "none", f"the mode never changed ({', '.join(modes)})")


def appearances(part):
    """The framebuffers in the order they were shown: [(t, fb, owner)], one per appearance."""
    seq = []
    for s in part:
        if not seq or seq[-1][1] != s["fb"] or seq[-1][2] != s["owner"]:
            seq.append((s["t"], s["fb"], s["owner"]))
    return seq


def snap(fb, which, after_index):
    """The first snapshot of fb/which at or after position after_index in the snapshot list."""
    for i, s in enumerate(snaps):
        if i >= after_index and s["fb"] == fb and s["which"] == which:
            return i, s
    return None, None


# Phase 1: the boot's hand-over.
boot = appearances([s for s in samples if s["t"] < phases["phase2"]])
figure("boot, framebuffers shown: " + " -> ".join(f"{fb} ({o}) at {t:.3f}s" for t, fb, o in boot))
dial = [i for i, (_, _, o) in enumerate(boot) if o == "dialkiosk"]
splash = [i for i, (_, _, o) in enumerate(boot) if o == "plymouthd"]
if check(dial and splash, "Plymouth's and then the dial's framebuffer were seen at boot"):
    d, p = dial[0], splash[0]
    check(d > 0 and boot[d - 1][2] == "plymouthd",
          f"the dial's first framebuffer followed Plymouth's directly (before it: {boot[d - 1][1:] if d else 'nothing'})")
    check(all(o == "plymouthd" for _, _, o in boot[p:d]), "nothing but Plymouth between the splash's first frame and the dial")
    check(all(o == "dialkiosk" for _, _, o in boot[d:]), "nothing but the dial after its first frame (no console after the quit)")
    figure(f"kernel start to Plymouth's first frame {boot[p][0]:.3f} s, to the dial's first frame {boot[d][0]:.3f} s")
    try:
        started = [l for l in open(os.path.join(out, "boot-state.txt")) if l.startswith("plymouthd started at ")]
        us = int(started[0].split()[3])
        if us > 0:
            figure(f"plymouthd start to its first frame {boot[p][0] - us / 1e6:.3f} s")
    except (OSError, IndexError, ValueError):
        pass
    # Snapshots in order: Plymouth's fb as it was when replaced, the dial's first.
    pfb, dfb = boot[d - 1][1], boot[d][1]
    i, last_splash = snap(pfb, "last", 0)
    j, first_dial = snap(dfb, "first", i or 0)
    if check(last_splash is not None and first_dial is not None, "snapshots of the splash's last and the dial's first frame"):
        check(not last_splash["black"], f"Plymouth's last frame (fb {pfb}) is not all black")
        check(not first_dial["black"], f"the dial's first frame (fb {dfb}) is not all black")
        worst = max_channel_difference(os.path.join(out, "watch", os.path.basename(last_splash["file"])),
                                       os.path.join(out, "watch", os.path.basename(first_dial["file"])))
        check(worst is not None and worst <= 1,
              f"the splash's last frame and the dial's first differ by at most 1 per channel (max {worst})")

# Phase 2: Plymouth gone; console back after stop, then the dial again.
# The record holds changes only: what was shown at the restart is the last change before it.
before = [s for s in samples if s["t"] < phases["restart"]][-1:]
again = appearances(before + [s for s in samples if s["t"] >= phases["restart"]])
figure("restart, framebuffers shown: " + " -> ".join(f"{fb} ({o}) at {t:.3f}s" for t, fb, o in again))
dial2 = [i for i, (_, _, o) in enumerate(again) if o == "dialkiosk"]
if check(bool(dial2) and dial2[0] > 0, "after the restart a console framebuffer, then the dial's"):
    d = dial2[0]
    check(d == 1 and again[0][2] not in ("plymouthd", "dialkiosk"),
          f"from the console's framebuffer straight to the dial's ({again[:d + 1]})")
    figure(f"restart without Plymouth: systemctl start to the dial's first frame {again[d][0] - phases['restart']:.3f} s")
    k, first = snap(again[d][1], "first", len(snaps) - 2)
    check(first is not None and not first["black"], "the dial's first frame after the restart is not all black")
print("\n".join(results))

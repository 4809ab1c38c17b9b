#!/usr/bin/python3
"""Creates uinput input devices in the test bed guest and replays a scripted gesture on them.

Devices (--devices, default all three):
  touch     a direct multitouch touchscreen: ABS_MT_SLOT, ABS_MT_TRACKING_ID,
            ABS_MT_POSITION_X/Y, ABS_MT_TOOL_TYPE, ABS_X/Y, BTN_TOUCH, INPUT_PROP_DIRECT; the axes
            span the screen size in pixels (0..width-1, 0..height-1), so script x/y are pixels
  mouse     a wheel mouse: REL_X/Y, REL_WHEEL + REL_WHEEL_HI_RES, left/right/middle buttons
  keyboard  a keyboard with the keys of a PC's first rows plus arrows, Home, End, Enter, Space
  encoder   a rotary encoder as the kernel's rotary-encoder driver makes it with
            `linux,axis = <8>`: EV_REL with REL_WHEEL only, no buttons, bus host (not all)
  dial      the same with `linux,axis = <7>`: REL_DIAL only (not all)

The script is JSON Lines in the project's touch format plus actions; t is seconds from the start
of the replay, which runs at real time. Lines with the same t for touch go into one frame.
  {"t": 0.016, "type": "down", "x": 400, "y": 120, "slot": 0}      also "motion", "up"
  {"t": 0.5, "type": "cancel", "slot": 0}     the contact turns into a palm (MT_TOOL_PALM), which
                                              libinput reports as a touch cancel, then lifts
  {"t": 1.0, "type": "wheel", "detents": 1}   also "v120": 60 for a half detent (hi-res only)
  {"t": 1.0, "type": "key", "key": "KEY_LEFT"}             press and release
  {"t": 1.0, "type": "button", "button": "BTN_LEFT", "down": true}
  {"t": 1.0, "type": "pointer", "dx": 10, "dy": 0}
  {"t": 1.2, "type": "destroy", "device": "touch"}         unplug that device now
  {"t": 1.5, "type": "create", "device": "dial"}           plug that device in now (a new node)
  {"t": 2.0, "type": "wait", "file": "/out/x.go"}          wait until the file exists; the lines
                                              after it keep their distance to it (t shifts by the wait)
  {"t": 1.0, "type": "turn", "device": "encoder", "steps": -1}  REL_WHEEL (encoder) or REL_DIAL
                                              (dial) by steps, as the encoder driver reports a detent

Protocol with the test: prints `inject: ready touch=/dev/input/eventN ...` once every device
exists (python starts slowly in the guest: wait for this line), waits for --go-file if given,
replays, prints `inject: done`, then keeps the devices until SIGTERM/SIGINT (or exits at once
with --exit).
"""
import argparse
import json
import os
import signal
import sys
import time

from evdev import AbsInfo, UInput, ecodes as e

KEYBOARD_KEYS = list(range(e.KEY_ESC, e.KEY_SLASH + 1)) + [
    e.KEY_SPACE, e.KEY_LEFT, e.KEY_RIGHT, e.KEY_UP, e.KEY_DOWN, e.KEY_HOME, e.KEY_END,
    e.KEY_PAGEUP, e.KEY_PAGEDOWN, e.KEY_KPENTER]
MAX_SLOTS = 10
# linux/input.h; python3-evdev 1.6 does not export the MT_TOOL_* values.
MT_TOOL_FINGER, MT_TOOL_PALM = 0, 2


def say(line):
    print("inject: " + line, flush=True)


def fail(message):
    print("inject: error: " + message, file=sys.stderr, flush=True)
    sys.exit(1)


def make_touch(width, height):
    # Resolution in units per mm: 4 px/mm gives a plausible 256 mm wide panel at 1024 px.
    def axis(size):
        return AbsInfo(value=0, min=0, max=size - 1, fuzz=0, flat=0, resolution=4)
    caps = {
        e.EV_KEY: [e.BTN_TOUCH],
        e.EV_ABS: [
            (e.ABS_X, axis(width)), (e.ABS_Y, axis(height)),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, MAX_SLOTS - 1, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, axis(width)), (e.ABS_MT_POSITION_Y, axis(height)),
            (e.ABS_MT_TOOL_TYPE, AbsInfo(0, 0, MT_TOOL_PALM, 0, 0, 0)),
        ],
    }
    return UInput(caps, name="DialKiosk test touchscreen", vendor=0x1d6b, product=0x0001,
                  version=1, bustype=e.BUS_VIRTUAL, input_props=[e.INPUT_PROP_DIRECT])


def make_mouse():
    caps = {
        e.EV_KEY: [e.BTN_LEFT, e.BTN_RIGHT, e.BTN_MIDDLE],
        e.EV_REL: [e.REL_X, e.REL_Y, e.REL_WHEEL, e.REL_WHEEL_HI_RES],
    }
    return UInput(caps, name="DialKiosk test wheel mouse", vendor=0x1d6b, product=0x0002,
                  version=1, bustype=e.BUS_VIRTUAL)


# The one axis of each encoder device (linux/input-event-codes.h: REL_DIAL 7, REL_WHEEL 8).
ENCODER_AXIS = {"encoder": e.REL_WHEEL, "dial": e.REL_DIAL}


def make_encoder(name):
    # drivers/input/misc/rotary_encoder.c: input_set_capability(EV_REL, axis), BUS_HOST.
    axis = ENCODER_AXIS[name]
    return UInput({e.EV_REL: [axis]}, name=f"DialKiosk test rotary encoder {e.REL[axis]}",
                  vendor=0, product=0, version=1, bustype=e.BUS_HOST)


def make_keyboard():
    return UInput({e.EV_KEY: KEYBOARD_KEYS}, name="DialKiosk test keyboard", vendor=0x1d6b,
                  product=0x0003, version=1, bustype=e.BUS_VIRTUAL)


class Touch:
    """Multitouch protocol B state: which slots hold contacts and their tracking ids."""

    def __init__(self, dev):
        self.dev = dev
        self.active = {}  # slot -> (x, y)
        self.next_id = 1
        self.slot = None

    def _select(self, slot):
        if not 0 <= slot < MAX_SLOTS:
            raise ValueError(f"slot {slot} outside 0..{MAX_SLOTS - 1}")
        if slot != self.slot:
            self.dev.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
            self.slot = slot

    def _single_touch(self):
        # ABS_X/Y and BTN_TOUCH follow the lowest active slot, as kernel drivers do.
        if self.active:
            x, y = self.active[min(self.active)]
            self.dev.write(e.EV_ABS, e.ABS_X, x)
            self.dev.write(e.EV_ABS, e.ABS_Y, y)

    def apply(self, ev):
        kind, slot = ev["type"], int(ev.get("slot", 0))
        was_touching = bool(self.active)
        self._select(slot)
        if kind == "down":
            if slot in self.active:
                raise ValueError(f"down on slot {slot}, which already has a contact")
            self.dev.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, self.next_id)
            self.next_id = self.next_id % 65535 + 1
            self.dev.write(e.EV_ABS, e.ABS_MT_TOOL_TYPE, MT_TOOL_FINGER)
        elif slot not in self.active:
            raise ValueError(f"{kind} on slot {slot}, which has no contact")
        if kind in ("down", "motion"):
            x, y = int(round(ev["x"])), int(round(ev["y"]))
            self.dev.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
            self.dev.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
            self.active[slot] = (x, y)
        elif kind == "cancel":
            self.dev.write(e.EV_ABS, e.ABS_MT_TOOL_TYPE, MT_TOOL_PALM)
            self.dev.syn()
            self.dev.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
            del self.active[slot]
        elif kind == "up":
            self.dev.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
            del self.active[slot]
        if not was_touching and self.active:
            self.dev.write(e.EV_KEY, e.BTN_TOUCH, 1)
        self._single_touch()
        if was_touching and not self.active:
            self.dev.write(e.EV_KEY, e.BTN_TOUCH, 0)


def load_script(path):
    events = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                ev = json.loads(line)
                float(ev["t"])
                ev["type"]
            except (ValueError, KeyError, TypeError) as err:
                fail(f"{path}:{n}: not a script line ({err}): {line}")
            ev["_line"] = f"{path}:{n}"
            events.append(ev)
    events.sort(key=lambda ev: float(ev["t"]))  # stable: same-t lines keep their order
    return events


TOUCH_TYPES = ("down", "motion", "up", "cancel")
DEVICE_OF = {"down": "touch", "motion": "touch", "up": "touch", "cancel": "touch",
             "wheel": "mouse", "button": "mouse", "pointer": "mouse", "key": "keyboard"}


def replay(events, devices, touch, makers=None, wait_timeout=300):
    start = time.monotonic()
    pending = set()  # devices written since their last SYN_REPORT
    for i, ev in enumerate(events):
        delay = start + float(ev["t"]) - time.monotonic()
        if delay > 0:
            for name in pending:
                devices[name].syn()
            pending.clear()
            time.sleep(delay)  # replaying at real time is the point; nothing is waited for
        kind = ev["type"]
        try:
            if kind in ("create", "wait"):
                for d in pending:
                    devices[d].syn()
                pending.clear()
                if kind == "create":
                    name = ev["device"]
                    if name in devices or name not in (makers or {}):
                        raise ValueError(f"cannot create {name} (exists, or unknown)")
                    devices[name] = makers[name]()
                    say(f"created {name}={devices[name].device.path}")
                else:
                    began = time.monotonic()
                    while not os.path.exists(ev["file"]):
                        if time.monotonic() - began > wait_timeout:
                            raise ValueError(f"{ev['file']} did not appear within {wait_timeout:.0f} s")
                        time.sleep(0.02)
                    start += time.monotonic() - began
                continue
            if kind == "destroy":
                name = ev.get("device", "touch")
                for d in pending:
                    devices[d].syn()
                pending.clear()
                devices.pop(name).close()
                say(f"destroyed {name}")
                continue
            name = ev.get("device", DEVICE_OF.get(kind))
            if name not in devices:
                raise ValueError(f"no {name} device for a {kind} line (created or destroyed?)")
            dev = devices[name]
            if kind in TOUCH_TYPES:
                touch.apply(ev)
            elif kind == "wheel":
                v120 = int(ev["v120"]) if "v120" in ev else 120 * int(ev["detents"])
                # Legacy REL_WHEEL only counts whole detents; the hi-res axis carries the rest.
                if v120 % 120 == 0:
                    dev.write(e.EV_REL, e.REL_WHEEL, v120 // 120)
                dev.write(e.EV_REL, e.REL_WHEEL_HI_RES, v120)
            elif kind == "key":
                code = e.ecodes[ev["key"]]
                dev.write(e.EV_KEY, code, 1)
                dev.syn()
                dev.write(e.EV_KEY, code, 0)
            elif kind == "button":
                dev.write(e.EV_KEY, e.ecodes[ev["button"]], 1 if ev.get("down", True) else 0)
            elif kind == "turn":
                if name not in ENCODER_AXIS:
                    raise ValueError(f"a turn line needs device encoder or dial, not {name}")
                dev.write(e.EV_REL, ENCODER_AXIS[name], int(ev["steps"]))
            elif kind == "pointer":
                dev.write(e.EV_REL, e.REL_X, int(ev.get("dx", 0)))
                dev.write(e.EV_REL, e.REL_Y, int(ev.get("dy", 0)))
            else:
                raise ValueError(f"unknown type {kind!r}")
        except (ValueError, KeyError) as err:
            fail(f"{ev['_line']}: {err}")
        pending.add(name)
        nxt = events[i + 1] if i + 1 < len(events) else None
        if kind not in TOUCH_TYPES or nxt is None or nxt["t"] != ev["t"] \
                or nxt["type"] not in TOUCH_TYPES:
            dev.syn()
            pending.discard(name)
    for name in pending:
        devices[name].syn()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script", nargs="?", help="JSON Lines script to replay (none: only create)")
    ap.add_argument("--size", default="1024x768", help="screen size WxH in pixels for the touch axes")
    ap.add_argument("--devices", default="touch,mouse,keyboard", help="comma-separated devices")
    ap.add_argument("--go-file", help="wait until this file exists before replaying")
    ap.add_argument("--go-timeout", type=float, default=300, help="seconds to wait for --go-file")
    ap.add_argument("--exit", action="store_true", help="remove the devices and exit after replay")
    args = ap.parse_args()

    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        fail(f"--size must be WxH, got {args.size!r}")
    wanted = [d for d in args.devices.split(",") if d]
    unknown = set(wanted) - {"touch", "mouse", "keyboard", "encoder", "dial"}
    if unknown:
        fail(f"unknown device(s) {', '.join(sorted(unknown))}; known: touch, mouse, keyboard, encoder, dial")
    events = load_script(args.script) if args.script else []

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    makers = {"touch": lambda: make_touch(width, height), "mouse": make_mouse,
              "keyboard": make_keyboard, "encoder": lambda: make_encoder("encoder"),
              "dial": lambda: make_encoder("dial")}
    devices = {}
    try:
        for name in wanted:
            devices[name] = makers[name]()
    except OSError as err:
        fail(f"cannot create a uinput device ({err}); is the uinput module loaded?")
    touch = Touch(devices["touch"]) if "touch" in devices else None
    say("ready " + " ".join(f"{n}={d.device.path}" for n, d in devices.items()))

    if args.go_file:
        deadline = time.monotonic() + args.go_timeout
        while not os.path.exists(args.go_file):
            if time.monotonic() > deadline:
                fail(f"{args.go_file} did not appear within {args.go_timeout:.0f} s")
            time.sleep(0.02)
    try:
        replay(events, devices, touch, makers, args.go_timeout)
        say("done")
        if not args.exit:
            signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        for d in devices.values():
            d.close()


if __name__ == "__main__":
    main()

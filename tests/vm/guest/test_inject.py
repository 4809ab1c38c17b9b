#!/usr/bin/python3
"""Host-side tests of inject.py's event encoding, with a fake device instead of uinput.

Run by run-all.sh before any VM boots: `python3 -m unittest discover -s tests/vm/guest`.
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inject  # noqa: E402
from evdev import ecodes as e  # noqa: E402


class FakeDevice:
    """Records (type, code, value) writes; SYN_REPORT as ("syn",)."""

    def __init__(self):
        self.log = []
        self.closed = False

    def write(self, etype, code, value):
        self.log.append((etype, code, value))

    def syn(self):
        self.log.append(("syn",))

    def close(self):
        self.closed = True

    def frames(self):
        out, cur = [], []
        for item in self.log:
            if item == ("syn",):
                out.append(cur)
                cur = []
            else:
                cur.append(item)
        return out


def script(lines):
    f = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False)
    f.write("\n".join(lines) + "\n")
    f.close()
    events = inject.load_script(f.name)
    os.unlink(f.name)
    return events


def run(lines, names=("touch",)):
    devices = {n: FakeDevice() for n in names}
    touch = inject.Touch(devices["touch"]) if "touch" in devices else None
    inject.replay(script(lines), dict(devices), touch)
    return devices


class TouchEncoding(unittest.TestCase):
    def test_down_motion_up_frames(self):
        dev = run(['{"t": 0, "type": "down", "x": 10, "y": 20}',
                   '{"t": 0, "type": "motion", "x": 11, "y": 21}',
                   '{"t": 0, "type": "up"}'])["touch"]
        frames = dev.frames()
        # Same t for the three lines: one frame.
        self.assertEqual(len(frames), 1)
        f = frames[0]
        self.assertIn((e.EV_ABS, e.ABS_MT_SLOT, 0), f)
        self.assertIn((e.EV_ABS, e.ABS_MT_TRACKING_ID, 1), f)
        self.assertIn((e.EV_ABS, e.ABS_MT_POSITION_X, 11), f)
        self.assertIn((e.EV_ABS, e.ABS_MT_TRACKING_ID, -1), f)
        self.assertEqual([x for x in f if x[1] == e.BTN_TOUCH and x[0] == e.EV_KEY],
                         [(e.EV_KEY, e.BTN_TOUCH, 1), (e.EV_KEY, e.BTN_TOUCH, 0)])

    def test_separate_times_are_separate_frames_and_single_touch_follows_lowest_slot(self):
        dev = run(['{"t": 0, "type": "down", "x": 100, "y": 100, "slot": 1}',
                   '{"t": 0.001, "type": "down", "x": 5, "y": 6, "slot": 0}',
                   '{"t": 0.002, "type": "motion", "x": 200, "y": 201, "slot": 1}'])["touch"]
        frames = dev.frames()
        self.assertEqual(len(frames), 3)
        self.assertIn((e.EV_ABS, e.ABS_X, 100), frames[0])
        self.assertIn((e.EV_ABS, e.ABS_X, 5), frames[1])
        # Slot 0 is still down, so ABS_X stays with it while slot 1 moves.
        self.assertIn((e.EV_ABS, e.ABS_X, 5), frames[2])
        self.assertNotIn((e.EV_ABS, e.ABS_X, 200), frames[2])
        # BTN_TOUCH goes down once, with the first contact.
        self.assertEqual(sum(1 for fr in frames for x in fr if x == (e.EV_KEY, e.BTN_TOUCH, 1)), 1)

    def test_cancel_is_palm_then_lift(self):
        dev = run(['{"t": 0, "type": "down", "x": 1, "y": 2}',
                   '{"t": 0.001, "type": "cancel"}'])["touch"]
        frames = dev.frames()
        self.assertIn((e.EV_ABS, e.ABS_MT_TOOL_TYPE, inject.MT_TOOL_PALM), frames[1])
        self.assertIn((e.EV_ABS, e.ABS_MT_TRACKING_ID, -1), frames[2])
        self.assertIn((e.EV_KEY, e.BTN_TOUCH, 0), frames[2])

    def test_motion_without_contact_fails_with_the_line(self):
        with self.assertRaises(SystemExit):
            run(['{"t": 0, "type": "motion", "x": 1, "y": 2}'])


class OtherDevices(unittest.TestCase):
    def test_wheel_detent_and_half_detent(self):
        dev = run(['{"t": 0, "type": "wheel", "detents": -1}',
                   '{"t": 0.001, "type": "wheel", "v120": 60}'], names=("mouse",))["mouse"]
        frames = dev.frames()
        self.assertEqual(frames[0], [(e.EV_REL, e.REL_WHEEL, -1), (e.EV_REL, e.REL_WHEEL_HI_RES, -120)])
        self.assertEqual(frames[1], [(e.EV_REL, e.REL_WHEEL_HI_RES, 60)])

    def test_key_press_and_release_are_two_frames(self):
        dev = run(['{"t": 0, "type": "key", "key": "KEY_LEFT"}'], names=("keyboard",))["keyboard"]
        self.assertEqual(dev.frames(), [[(e.EV_KEY, e.KEY_LEFT, 1)], [(e.EV_KEY, e.KEY_LEFT, 0)]])

    def test_encoder_turns_write_their_own_axis(self):
        devices = run(['{"t": 0, "type": "turn", "device": "encoder", "steps": -1}',
                       '{"t": 0.001, "type": "turn", "device": "dial", "steps": 2}'], names=("encoder", "dial"))
        self.assertEqual(devices["encoder"].frames(), [[(e.EV_REL, e.REL_WHEEL, -1)]])
        self.assertEqual(devices["dial"].frames(), [[(e.EV_REL, e.REL_DIAL, 2)]])

    def test_destroy_closes_the_device(self):
        devices = {"touch": FakeDevice()}
        inject.replay(script(['{"t": 0, "type": "destroy", "device": "touch"}']), dict(devices),
                      inject.Touch(devices["touch"]))
        self.assertTrue(devices["touch"].closed)

    def test_create_makes_the_device_and_wait_shifts_the_schedule(self):
        made = []

        def make():
            dev = FakeDevice()
            dev.device = type("Node", (), {"path": "/dev/input/event9"})()
            made.append(dev)
            return dev
        with tempfile.TemporaryDirectory() as tmp:
            go = os.path.join(tmp, "go")
            open(go, "w").close()
            devices = {}
            inject.replay(script(['{"t": 0, "type": "create", "device": "dial"}',
                                  '{"t": 0.001, "type": "wait", "file": "%s"}' % go,
                                  '{"t": 0.002, "type": "turn", "device": "dial", "steps": 1}',
                                  '{"t": 0.003, "type": "destroy", "device": "dial"}',
                                  '{"t": 0.004, "type": "create", "device": "dial"}']),
                          devices, None, {"dial": make})
        self.assertEqual(len(made), 2)
        self.assertEqual(made[0].frames(), [[(e.EV_REL, e.REL_DIAL, 1)]])
        self.assertTrue(made[0].closed)
        self.assertIs(devices["dial"], made[1])


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Reads DialKiosk's event lines (JSON objects with "event", one a line, as `run` prints them
and the journal keeps them) with a JSON parser, so a check does not depend on spacing or key
order. Lines that are not such an object (log lines, a console's prefix before the '{') are
skipped; a prefix before the object is allowed.

  dkevents.py FILE [--event NAME] [--field KEY] [--first | --last] [--until NAME]

Prints the value of KEY (or the whole line) of each event named NAME in FILE ('-': standard
input), stopping at the first event named --until; with --first or --last only that one.
Exits 1 when nothing matched. Standard library only: it runs on the host and in the VM guest.
"""
import argparse
import json
import sys


def events(lines):
    for line in lines:
        start = line.find("{")
        if start < 0:
            continue
        try:
            value = json.loads(line[start:])
        except ValueError:
            continue
        if isinstance(value, dict) and "event" in value:
            yield value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", help="the file of event lines ('-': standard input)")
    parser.add_argument("--event", help="only events of this name")
    parser.add_argument("--field", help="print this key's value, not the whole line")
    parser.add_argument("--until", help="stop at the first event of this name")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--first", action="store_true", help="only the first match")
    which.add_argument("--last", action="store_true", help="only the last match")
    args = parser.parse_args()
    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8", errors="replace")
    found = []
    for event in events(source):
        if args.until and event["event"] == args.until:
            break
        if args.event and event["event"] != args.event:
            continue
        if args.field:
            if args.field not in event:
                continue
            value = event[args.field]
            found.append(json.dumps(value) if isinstance(value, (dict, list)) else
                         ("%r" % value if isinstance(value, float) else str(value)))
        else:
            found.append(json.dumps(event))
    if args.first:
        found = found[:1]
    elif args.last:
        found = found[-1:]
    for line in found:
        print(line)
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())

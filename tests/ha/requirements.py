"""Prints, one a line, the requirements of the integrations Home Assistant sets up for a
configuration naming the integrations given as arguments (tests/ha/core.py's: mqtt): the core's
and the default ones bootstrap always loads, each with its dependencies' closure, as their
manifests pin them. Run with the Home Assistant venv's python (tests/ha/venv.sh), which then
installs exactly these, so `hass --skip-pip` never needs to install anything.
Usage: requirements.py INTEGRATION..."""
import json
import os
import sys

from homeassistant import bootstrap
import homeassistant.components

components = os.path.dirname(homeassistant.components.__file__)
todo = sorted(bootstrap.CORE_INTEGRATIONS | bootstrap.DEFAULT_INTEGRATIONS | set(sys.argv[1:]))
seen, requirements = set(), set()
while todo:
    domain = todo.pop()
    if domain in seen:
        continue
    seen.add(domain)
    manifest = os.path.join(components, domain, "manifest.json")
    if not os.path.exists(manifest):
        sys.exit(f"requirements.py: no integration {domain!r} in this Home Assistant")
    with open(manifest) as f:
        data = json.load(f)
    requirements.update(data.get("requirements", []))
    todo += data.get("dependencies", [])
print("\n".join(sorted(requirements)))

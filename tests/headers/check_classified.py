#!/usr/bin/env python3
"""check_classified.py ROOT --rooms DIR... --public H... --internal H...

Each room DIR is read with its exported DIR/include/ folder, if it has one.

Every header in a room is public (compiled on its own by tests/headers),
internal (listed), or named *-private.h; a header in none of these, a header
in an exported include/ folder that is not public, or a listed header that
does not exist, fails the test and is named on stderr."""
import os
import sys


def main():
    root = sys.argv[1]
    lists = {"--rooms": [], "--public": [], "--internal": []}
    current = None
    for arg in sys.argv[2:]:
        if arg in lists:
            current = lists[arg]
        else:
            current.append(arg)
    listed = set(lists["--public"]) | set(lists["--internal"])
    failures = []
    folders = []
    for room in lists["--rooms"]:
        folders.append(room)
        if os.path.isdir(os.path.join(root, room, "include")):
            folders.append(room + "/include")
    for room in folders:
        for name in sorted(os.listdir(os.path.join(root, room))):
            path = room + "/" + name
            if not name.endswith(".h"):
                continue
            if os.path.basename(room) == "include" and path not in lists["--public"]:
                failures.append(f"{path}: in an exported include/ folder but not public")
            elif not name.endswith("-private.h") and path not in listed:
                failures.append(f"{path}: neither public nor internal in tests/headers/meson.build")
    for path in sorted(listed):
        if not os.path.isfile(os.path.join(root, path)):
            failures.append(f"{path}: listed in tests/headers/meson.build but missing")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(lists['--public'])} public headers compile alone, "
          f"{len(lists['--internal'])} internal, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

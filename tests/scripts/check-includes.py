#!/usr/bin/env python3
"""Every include of a core/ or ui/ header names its folder ("model/config.h", "chart/chartarea.h"),
so an include line shows the room it reaches into (issue 37). Same-folder includes too: a bare name
would still compile (it is found beside the including file) and hide the folder again.
    tests/scripts/check-includes.py SOURCE_DIR
Prints each bare include with its file and line and exits 1 if there is any."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
headers = {}
for top in ('core', 'ui'):
    for folder in sorted(os.listdir(os.path.join(root, top))):
        path = os.path.join(root, top, folder)
        if os.path.isdir(path):
            for name in os.listdir(path):
                if name.endswith(('.h', '.h.in')):
                    headers[name.removesuffix('.in')] = folder
headers['interconnects_data.h'] = 'devices'
include = re.compile(r'^\s*#\s*include\s+"([^"/]+)"')
bare = []
for top in ('core', 'ui', 'app', 'tests'):
    for folder, _, names in os.walk(os.path.join(root, top)):
        for name in sorted(names):
            if not name.endswith(('.cpp', '.h', '.h.in')):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding='utf-8') as f:
                for number, line in enumerate(f, 1):
                    m = include.match(line)
                    if m and m.group(1) in headers:
                        bare.append(f'{os.path.relpath(path, root)}:{number}: "{m.group(1)}" should be '
                                    f'"{headers[m.group(1)]}/{m.group(1)}"')
print('\n'.join(bare) if bare else f'check-includes: every include of the {len(headers)} core/ and ui/ headers names its folder')
sys.exit(1 if bare else 0)

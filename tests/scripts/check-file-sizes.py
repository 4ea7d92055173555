#!/usr/bin/env python3
"""No source or test file over 400 lines (the house limit, issue 37): a file that long holds more than
one role. The files listed below were longer when the limit came and are being cut down; each may
shrink but not grow, and leaves the list once it is under the limit (the check says so).
    tests/scripts/check-file-sizes.py SOURCE_DIR
Prints every file over its limit and exits 1 if there is any."""
import os
import sys

LIMIT = 400
STILL_OVER = {  # path: its length when listed (2026-12-05); cut these down, never raise a number
}

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
problems = []
for top in ('core', 'ui', 'app', 'tests'):
    for folder, dirs, names in os.walk(os.path.join(root, top)):
        dirs[:] = [d for d in dirs if d not in ('data', 'corpus')]
        for name in sorted(names):
            if not name.endswith(('.cpp', '.h')):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding='utf-8') as f:
                lines = sum(1 for _ in f)
            limit = STILL_OVER.get(rel, LIMIT)
            if lines > limit:
                problems.append(f'{rel}: {lines} lines, over {"its listed " if rel in STILL_OVER else "the "}{limit}: '
                                'split it by role (one file, one role)')
            elif rel in STILL_OVER and lines <= LIMIT:
                problems.append(f'{rel}: {lines} lines, under the limit now: take it off STILL_OVER in {sys.argv[0]}')
for rel in STILL_OVER:
    if not os.path.exists(os.path.join(root, rel)):
        problems.append(f'{rel}: listed in STILL_OVER but gone: take it off the list')
listed = f' but the {len(STILL_OVER)} listed, none grown' if STILL_OVER else ''
print('\n'.join(problems) if problems else f'check-file-sizes: every source and test file within {LIMIT} lines{listed}')
sys.exit(1 if problems else 0)

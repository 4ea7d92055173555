#!/usr/bin/env python3
"""The release, asan and fuzz presets compile each library's files as unity sources (several .cpp
files in one translation unit; CMakeLists.txt says why). Two files of one library whose anonymous
namespaces (or static functions) hold the same name then meet in one unit: a redefinition fails to
build, but an overload with other parameters builds and is silently called instead (calibration
files read through measurement_trace.cpp's member(json, const char*) said "schema: must be a whole
number"). This finds such names before a unity build does:
    tests/scripts/check-unity-names.py SOURCE_DIR
A library is a folder of core/ or ui/, or app/. An alias ('using json = ...') may repeat with the
same type. Prints each name with its files and exits 1 if there is any."""
import collections
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
function = re.compile(r'^(?:static\s+|inline\s+|constexpr\s+|template\s*<[^>]*>\s*)*[\w:<>,\s\*&]+?[\s\*&]([A-Za-z_]\w*)\s*\(')
constant = re.compile(r'^(?:static\s+)?(?:inline\s+)?(?:constexpr|const)\s+[\w:<>]+\s+(\w+)\s*[=\[{]')
alias = re.compile(r'^using\s+(\w+)\s*=\s*(.+?);')
kind = re.compile(r'^(?:struct|class|enum class|enum|union)\s+(\w+)\s*[:{]')


def names_in(path):
    """(name, what) of what the file defines at namespace scope in an anonymous namespace or as static."""
    out = []
    anonymous = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if re.match(r'^namespace\s*\{', line):
                anonymous = True
                continue
            if anonymous and re.match(r'^\}\s*// namespace\s*$', line):
                anonymous = False
                continue
            if line[:1] in (' ', '\t', '#', '/', '}', '\n') or line.startswith(('return', 'using namespace')):
                continue
            if not anonymous and not line.startswith('static '):
                continue
            for pattern, what in ((alias, 'alias'), (kind, 'type'), (constant, 'constant'), (function, 'function')):
                m = pattern.match(line)
                if m:
                    out.append((m.group(1), m.group(2).strip() if what == 'alias' else what))
                    break
    return out


libraries = collections.defaultdict(list)
for top in ('core', 'ui'):
    for folder in sorted(os.listdir(os.path.join(root, top))):
        path = os.path.join(root, top, folder)
        if os.path.isdir(path):
            libraries[os.path.join(top, folder)] += [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.endswith('.cpp')]
libraries['app'] = [os.path.join(root, 'app', n) for n in sorted(os.listdir(os.path.join(root, 'app'))) if n.endswith('.cpp')]

clashes = []
for library, files in sorted(libraries.items()):
    seen = collections.defaultdict(dict)  # name -> file -> what
    for path in files:
        for name, what in names_in(path):
            seen[name].setdefault(os.path.basename(path), what)
    for name, where in sorted(seen.items()):
        if len(where) < 2:
            continue
        if all(w not in ('type', 'constant', 'function') for w in where.values()) and len(set(where.values())) == 1:
            continue  # the same alias, to the same type
        clashes.append('%s: %s defined in %s' % (library, name, ', '.join(sorted(where))))
for c in clashes:
    print(c)
if clashes:
    print('%d name(s) defined twice in one library: give each its own name, or one definition in a header both include'
          % len(clashes))
sys.exit(1 if clashes else 0)

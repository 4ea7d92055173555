#!/usr/bin/env python3
"""Checks the relative links of README.md, CHANGELOG.md, docs/*.md and resources/**/README.md: every
linked file exists, and every #anchor names a heading of its file (GitHub's slugs). Prints each
broken link as FILE:LINE: LINK: why, and exits 1 if there is one. Web links are not followed.
    tests/scripts/check-links.py [SOURCE_DIR]"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])


def slug(heading):
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#{1,6}\s+(.*?)\s*#*$", line)):
            found.add(slug(m.group(1)))
    return found


pages = [root / "README.md", root / "CHANGELOG.md", *sorted((root / "docs").glob("*.md")),
         *sorted((root / "resources").rglob("README.md"))]
broken, checked = [], 0
for page in pages:
    if not page.exists():
        broken.append(f"{page.relative_to(root)}: missing")
        continue
    fenced = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"^[a-z]+:", target):
                continue
            checked += 1
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            where = f"{page.relative_to(root)}:{number}: {target}"
            if not dest.exists():
                broken.append(f"{where}: no file {dest.relative_to(root) if dest.is_relative_to(root) else dest}")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{where}: {dest.name} has no heading '#{anchor}'")
for b in broken:
    print(b)
print(f"check-links: {checked} relative links in {len(pages)} pages, {len(broken)} broken")
sys.exit(1 if broken else 0)

"""Reads pm's translation tables with translate-toolkit, the file-format
library Weblate uses, and checks that it sees what pm sees.

argv: the Localization folder, a JSON file of what pm reads (per language:
"strings" key -> value, "plurals" key -> {category: form}, "categories"),
and a folder to write translate-toolkit's own serialization of each file
into (pm parses those back). Prints one line per problem, then ALL OK."""
import json
import os
import sys

from translate.misc.multistring import multistring
from translate.storage import properties, stringsdict

root, expected_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
expected = json.load(open(expected_path, encoding="utf-8"))
problems = []


def problem(text):
    problems.append(text)
    print(text)


for language, want in sorted(expected.items()):
    folder = os.path.join(root, language + ".lproj")
    # .strings: every key one unit, its value as pm reads it, comments as notes.
    with open(os.path.join(folder, "Localizable.strings"), "rb") as f:
        store = properties.stringsutf8file(f)
    units = {u.getid(): u for u in store.units if u.getid()}
    if set(units) != set(want["strings"]):
        problem(f"{language}: .strings keys differ: {sorted(set(units) ^ set(want['strings']))[:10]}")
    # A monolingual file: each unit's text is its source.
    for key, value in want["strings"].items():
        unit = units.get(key)
        if unit is not None and str(unit.source) != value:
            problem(f"{language}: {key}: translate-toolkit reads {str(unit.source)!r}, pm {value!r}")
    if language == "en":
        noted = [u for u in units.values() if u.getnotes().strip()]
        if len(noted) < 0.9 * len(units):
            problem(f"en: only {len(noted)} of {len(units)} units have a translator note")
        note = units["list.emptyColumn"].getnotes().strip() if "list.emptyColumn" in units else ""
        if note != "Shown in a column that has no cards.":
            problem(f"en: list.emptyColumn's note is {note!r}")
    with open(os.path.join(out, language + ".strings"), "wb") as f:
        store.serialize(f)

    # .stringsdict: every plural one plural unit, a form per category the
    # language needs (CLDR's, as ICU gives pm), nothing in the others.
    path = os.path.join(folder, "Localizable.stringsdict")
    plurals = stringsdict.StringsDictFile()
    plurals.filename = path
    with open(path, "rb") as f:
        plurals.parse(f.read())
    tags = plurals.target_plural_tags
    needed = set(want["categories"])
    if not needed <= set(tags):
        problem(f"{language}: translate-toolkit's categories {tags}, pm needs {sorted(needed)}")
    seen = set()
    for unit in plurals.units:
        key, _, variable = unit.getid().partition(":")
        seen.add(key)
        if not variable or not isinstance(unit.target, multistring):
            problem(f"{language}: {unit.getid()} is not read as a plural")
            continue
        forms = dict(zip(tags, (str(text) for text in unit.target.strings)))
        given = {tag for tag, text in forms.items() if text}
        if given != needed:
            problem(f"{language}: {key} has forms {sorted(given)}, the language needs {sorted(needed)}")
        for tag in given:
            if forms[tag] != want["plurals"].get(key, {}).get(tag):
                problem(f"{language}: {key} {tag}: {forms[tag]!r}, pm {want['plurals'].get(key, {}).get(tag)!r}")
    if seen != set(want["plurals"]):
        problem(f"{language}: plural keys differ: {sorted(seen ^ set(want['plurals']))[:10]}")
    with open(os.path.join(out, language + ".stringsdict"), "wb") as f:
        plurals.serialize(f)

print("ALL OK" if not problems else f"{len(problems)} problems")

#!/usr/bin/env python3
"""check_json_schema.py SCHEMA FILE...: validate each FILE, one ddx --json
output, against the SCHEMA (docs/ddx-json.schema.json) entry in $defs of
the command that printed it, which FILE's name starts with: COMMAND.REST
(tests/run's JSON wrapper names them so; check prints diff's report).
FILE.args, where it exists, holds the command line, named in what is
printed.  For each output that is not JSON or breaks the schema, prints
"FILE (ddx ARGS): PATH: ERROR" lines, PATH as "$.good[0].closest"; exits
1 when there was one, 2 on a usage error, else 0."""
import json, os, sys

import jsonschema
from jsonschema.exceptions import best_match

DEFS = {"check": "diff"}
MAX_ERRORS = 5

if len(sys.argv) < 3:
    print("usage: check_json_schema.py SCHEMA FILE...", file=sys.stderr)
    sys.exit(2)
with open(sys.argv[1]) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)


def where(error):
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)


def deepest(error):
    # An anyOf fails as a whole: the branch that is not null says what is
    # wrong with the field.
    while error.context:
        error = best_match([e for e in error.context if e.schema != {"type": "null"}] or error.context)
    return error


def problems(path):
    command = os.path.basename(path).split(".", 1)[0]
    name = DEFS.get(command, command)
    if name not in schema["$defs"]:
        print(f"check_json_schema.py: {path}: no $defs entry for command '{command}'", file=sys.stderr)
        sys.exit(2)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        return [f"not one JSON value: {e}"]
    validator = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{where(deepest(e))}: {deepest(e).message}" for e in errors]


bad = 0
for path in sys.argv[2:]:
    found = problems(path)
    if not found:
        continue
    bad += 1
    try:
        with open(path + ".args") as f:
            what = f"{path} (ddx {f.read().strip()})"
    except FileNotFoundError:
        what = path
    for p in found[:MAX_ERRORS]:
        print(f"{what}: {p}")
    if len(found) > MAX_ERRORS:
        print(f"{what}: and {len(found) - MAX_ERRORS} more")
sys.exit(1 if bad else 0)

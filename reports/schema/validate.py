#!/usr/bin/env python3
"""Validate JSON files against a JSON Schema, standard library only.

Implements the subset of JSON Schema 2020-12 that drasim's schemas use:
type (incl. lists), const, enum, required, properties, additionalProperties
(bool or schema), items, minimum, minLength, $ref to "#/$defs/...".
An unknown keyword is an error, so the schema cannot silently use more
than this checks. Usage: validate.py SCHEMA FILE...  (exit 1 on a violation)
"""
import json
import sys

KNOWN = {"$schema", "$id", "title", "description", "type", "const", "enum", "required",
         "properties", "additionalProperties", "items", "minimum", "minLength", "$ref", "$defs"}


def type_ok(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool) or (
            isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise ValueError("unknown type " + name)


def validate(root, schema, value, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError("schema uses unsupported keywords %s" % sorted(unknown))
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError("unsupported $ref " + ref)
        validate(root, root["$defs"][ref[len("#/$defs/"):]], value, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_ok(value, t) for t in types):
            errors.append("%s: expected %s, got %s" % (path, "|".join(types), json.dumps(value)[:60]))
            return
    if "const" in schema and value != schema["const"]:
        errors.append("%s: expected %s" % (path, json.dumps(schema["const"])))
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: expected one of %s" % (path, schema["enum"]))
    if "minimum" in schema and isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < schema["minimum"]:
            errors.append("%s: %s is below the minimum %s" % (path, value, schema["minimum"]))
    if "minLength" in schema and isinstance(value, str) and len(value) < schema["minLength"]:
        errors.append("%s: shorter than %d" % (path, schema["minLength"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: missing required field %s" % (path, key))
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                validate(root, props[key], item, path + "." + key, errors)
            elif extra is False:
                errors.append("%s: unknown field %s" % (path, key))
            elif isinstance(extra, dict):
                validate(root, extra, item, path + "." + key, errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(root, schema["items"], item, "%s[%d]" % (path, i), errors)


def main(argv):
    if len(argv) < 3:
        print("usage: validate.py SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    failed = 0
    for name in argv[2:]:
        with open(name) as f:
            document = json.load(f)
        errors = []
        validate(schema, schema, document, "$", errors)
        for error in errors:
            print("%s: error: %s" % (name, error))
        failed += bool(errors)
        print("%s: %s" % (name, "invalid" if errors else "valid"))
    print("%d passed, %d failed, 0 skipped" % (len(argv) - 2 - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""The generated JSON Schema of model files, checked with an independent validator (Debian's
python3-jsonschema, draft 2020-12): it is a valid schema, every example model satisfies it, and
broken copies of an example (a negative mass, an unknown joint type, misspelt keys) fail it.

usage: model_schema_test.py FLEXIM_CLI EXAMPLES_DIR
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("python3-jsonschema is missing (scripts/packages.txt lists it)")


def main():
    cli, examples = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "flexim-model.schema.json")
        subprocess.run([cli, "schema", "--out", path], check=True)
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        stdout = subprocess.run([cli, "schema"], check=True, capture_output=True, text=True).stdout
        assert json.loads(stdout) == schema, "schema on stdout differs from --out"

    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []

    models = sorted(glob.glob(os.path.join(examples, "*.json")))
    assert models, "no examples in " + examples
    for model in models:
        with open(model, encoding="utf-8") as f:
            doc = json.load(f)
        for error in validator.iter_errors(doc):
            failures.append(f"{os.path.basename(model)}: {list(error.absolute_path)}: {error.message}")

    with open(os.path.join(examples, "slider_crank_rigid.json"), encoding="utf-8") as f:
        base = json.load(f)

    def broken(name, change, where):
        doc = copy.deepcopy(base)
        change(doc)
        errors = list(validator.iter_errors(doc))
        if not errors:
            failures.append(f"broken example '{name}' satisfies the schema")
        elif not any(list(e.absolute_path)[: len(where)] == where for e in errors):
            failures.append(f"broken example '{name}': no error at {where}: {[e.message for e in errors]}")

    broken("negative mass", lambda d: d["bodies"][0].__setitem__("mass", -1.0), ["bodies", 0, "mass"])
    broken("unknown joint type", lambda d: d["joints"][0].__setitem__("type", "hinge"), ["joints", 0])
    broken("misspelt key", lambda d: d["bodies"][1].__setitem__("mas", d["bodies"][1].pop("mass")), ["bodies", 1])
    broken("misspelt top-level key", lambda d: d.__setitem__("gravty", [0, 0, 0]), [])
    broken("misspelt function parameter",
           lambda d: d["drivers"][0]["function"].__setitem__("sped", 1.0), ["drivers", 0, "function"])
    broken("parameter of another type",
           lambda d: d["drivers"][0]["function"].__setitem__("slope", 1.0), ["drivers", 0, "function"])
    broken("orientation twice", lambda d: d["ground"]["markers"][1].__setitem__("orientation", [1, 0, 0, 0]),
           ["ground", "markers", 1])

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(models)} examples checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

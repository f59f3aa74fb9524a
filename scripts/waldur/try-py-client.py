"""Runs Waldur's own generated client (waldur/py-client) against a running gateway, as a new user would.

    /usr/bin/python3 scripts/waldur/try-py-client.py <py-client checkout> <base url> <token>

Every GET operation of test/waldur/operations.json is called through py-client's `sync_detailed`: lists with
each of their `o` values too, retrieves with a uuid from their list. A response py-client cannot parse, or a
status other than 200, is a failure; the exit status is the number of failures (capped at 100).
"""

import importlib
import json
import pathlib
import sys
import traceback

CONTRACT = pathlib.Path(__file__).resolve().parents[2] / "test" / "waldur" / "operations.json"

# Answers Waldur gives too: a resource without a backend object has no details (404, empty body).
EXPECTED_STATUSES = {"marketplace_provider_resources_details_retrieve": {404}}


def load(client_dir):
    sys.path.insert(0, client_dir)
    from waldur_api_client import AuthenticatedClient  # noqa: E402

    return AuthenticatedClient, importlib.import_module


def module_of(import_module, operation):
    for package in sorted((pathlib.Path(sys.path[0]) / "waldur_api_client" / "api").iterdir()):
        if (package / f"{operation}.py").exists():
            return import_module(f"waldur_api_client.api.{package.name}.{operation}")
    return None


def enum_argument(module, name):
    """The enum class of a list argument (py-client types `o` as list[<Enum>])."""
    import inspect
    import typing

    annotation = inspect.signature(module.sync_detailed).parameters[name].annotation
    for arg in typing.get_args(annotation):
        for inner in typing.get_args(arg):
            if isinstance(inner, type):
                return inner
    return None


def call(module, client, expected=frozenset(), **kwargs):
    try:
        response = module.sync_detailed(client=client, **kwargs)
    except Exception as error:  # a parse error is what this script looks for
        if getattr(error, "status_code", None) in expected:  # py-client raises UnexpectedStatus for some statuses
            return None, None
        return None, traceback.format_exc(limit=2).strip().splitlines()[-1]
    if response.status_code in expected:
        return None, None
    if response.status_code != 200:
        return None, f"status {response.status_code}: {response.content[:200]!r}"
    return response.parsed, None


def main():
    client_dir, base_url, token = sys.argv[1:4]
    authenticated_client, import_module = load(client_dir)
    client = authenticated_client(base_url=base_url, token=token, prefix="Token")
    operations = [op for op in json.loads(CONTRACT.read_text())["operations"] if op["method"] == "GET"]
    failures, calls = [], 0
    first_id = {}
    for op in sorted(operations, key=lambda op: "{" in op["path"]):
        module = module_of(import_module, op["operation"])
        if module is None:
            failures.append(f"{op['operation']}: not in this py-client")
            continue
        path_args = [segment[1:-1] for segment in op["path"].split("/") if segment.startswith("{")]
        kwargs = {}
        if path_args:
            parent = op["path"].split("{")[0]
            known = first_id.get(parent, {})
            if len(path_args) != 1 or path_args[0] not in ("uuid", "id") and not path_args[0].endswith("uuid"):
                print(f"skip {op['operation']}: path {op['path']}")
                continue
            value = known.get("id" if path_args[0] == "id" else "uuid")
            if value is None:
                print(f"skip {op['operation']}: no object to retrieve")
                continue
            kwargs[path_args[0]] = value
        parsed, error = call(module, client, EXPECTED_STATUSES.get(op["operation"], frozenset()), **kwargs)
        calls += 1
        if error:
            failures.append(f"{op['operation']}: {error}")
            continue
        if isinstance(parsed, list) and parsed and not path_args:
            first_id[op["path"]] = {key: getattr(parsed[0], key) for key in ("uuid", "id") if hasattr(parsed[0], key)}
        if "o" in op["query"] and not path_args:
            enum = enum_argument(module, "o")
            for value in enum or []:
                _, error = call(module, client, o=[value])
                calls += 1
                if error:
                    failures.append(f"{op['operation']} o={value.value}: {error}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{calls} calls, {len(failures)} failures")
    sys.exit(min(len(failures), 100))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Extract the Waldur REST contract for the routes we serve from Waldur's generated py-client.

Usage: extract-contract.py <py-client bare git dir> <served-routes file> [output json]
Served-routes lines look like `GET /api/marketplace-orders/:uuid/ object`.
Writes the contract JSON (default test/waldur/operations.json) and prints a summary to stdout.
"""
import ast
import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

PACKAGE = "waldur_api_client"
API_PREFIX = f"{PACKAGE}/api/"
MODELS_PREFIX = f"{PACKAGE}/models/"
DEFAULT_OUTPUT = Path(__file__).resolve().parents[2] / "test" / "waldur" / "operations.json"
PAGINATION_PARAMS = {"page", "page_size"}
SCALARS = {"str": "str", "int": "int", "float": "float", "bool": "bool", "UUID": "uuid", "Any": "any"}


def read_sources(git_dir):
    """All .py files of the client package at HEAD, keyed by path."""
    archive = subprocess.run(["git", "--git-dir", git_dir, "archive", "--format=tar", "HEAD", PACKAGE],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        return {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers()
                if m.isfile() and m.name.endswith(".py")}


def path_key(method, path):
    return method.upper() + " " + re.sub(r"\{[^}]+\}|:[A-Za-z_]\w*", "{}", path)


def imported_models(tree):
    """Class name -> model module path, from every `from ..models.x import X` in the module."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("models."):
            for alias in node.names:
                names[alias.asname or alias.name] = MODELS_PREFIX + node.module[len("models."):] + ".py"
    return names


def function(tree, name):
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def union_members(annotation):
    """Flatten Union[...] / Optional[...] / string annotations into their member nodes."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return union_members(ast.parse(annotation.value, mode="eval").body)
    if isinstance(annotation, ast.Subscript) and getattr(annotation.value, "id", None) in ("Union", "Optional"):
        members = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        flat = [m for member in members for m in union_members(member)]
        return flat + ([ast.Constant(None)] if annotation.value.id == "Optional" else [])
    return [annotation]


def is_none(node):
    return (isinstance(node, ast.Constant) and node.value is None) or getattr(node, "id", None) == "None"


class Contract:
    def __init__(self, sources):
        self.sources, self.trees, self.models, self.enums, self.pending = sources, {}, {}, {}, []

    def tree(self, path):
        if path not in self.trees:
            self.trees[path] = ast.parse(self.sources[path])
        return self.trees[path]

    def class_def(self, module_path):
        if module_path not in self.sources:
            return None
        return next((n for n in self.tree(module_path).body if isinstance(n, ast.ClassDef)), None)

    def enum_values(self, module_path):
        cls = self.class_def(module_path)
        bases = [getattr(b, "id", "") for b in cls.bases] if cls else []
        if not any(b.endswith("Enum") for b in bases):
            return None
        return [s.value.value for s in cls.body
                if isinstance(s, ast.Assign) and isinstance(s.value, ast.Constant)]

    def named_type(self, name, imports):
        """`enum:X`, `model:X` or `any` for a class name, queueing models and enums for output."""
        module_path = imports.get(name)
        if module_path is None or module_path not in self.sources:
            return "any"
        values = self.enum_values(module_path)
        if values is not None:
            self.enums[name] = values
            return "enum:" + name
        if name not in self.models:
            self.pending.append((name, module_path))
        return "model:" + name

    def type_of(self, annotation, imports):
        """Simple type string and nullability for an annotation."""
        members = union_members(annotation)
        nullable = any(is_none(m) for m in members)
        kinds = []
        for member in members:
            if is_none(member) or getattr(member, "id", None) == "Unset":
                continue
            kind = self.single_type(member, imports)
            if kind not in kinds:
                kinds.append(kind)
        return "|".join(sorted(kinds)) or "any", nullable

    def single_type(self, node, imports):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.type_of(node, imports)[0]
        if isinstance(node, ast.Attribute) and node.attr in ("datetime", "date"):
            return node.attr
        if isinstance(node, ast.Subscript):
            container = getattr(node.value, "id", None)
            if container in ("list", "List"):
                return "list[" + self.type_of(node.slice, imports)[0] + "]"
            if container in ("Union", "Optional"):
                return self.type_of(node, imports)[0]
            return "any"
        if isinstance(node, ast.Name):
            return SCALARS.get(node.id) or self.named_type(node.id, imports)
        return "any"

    def model(self, module_path):
        """Required/optional fields (by JSON key) of an attrs model, from its annotations and from_dict."""
        tree = self.tree(module_path)
        imports = imported_models(tree)
        cls = self.class_def(module_path)
        annotations = {s.target.id: s.annotation for s in cls.body
                       if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
        from_dict = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "from_dict")
        attribute_of_local = {}
        for node in ast.walk(from_dict):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "cls":
                attribute_of_local.update({k.value.id: k.arg for k in node.keywords
                                           if k.arg and isinstance(k.value, ast.Name)})
        fields = {"required": {}, "optional": {}}
        for statement in from_dict.body:
            if not (isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)):
                continue
            for pop in ast.walk(statement.value):
                if not (isinstance(pop, ast.Call) and getattr(pop.func, "attr", None) == "pop"
                        and getattr(pop.func.value, "id", None) == "d"):
                    continue
                key = pop.args[0].value
                local = statement.targets[0].id
                candidates = [attribute_of_local.get(local), attribute_of_local.get(local.lstrip("_")),
                              local.lstrip("_"), key, key + "_"]
                attribute = next((c for c in candidates if c in annotations), None)
                kind, nullable = self.type_of(annotations[attribute], imports) if attribute else ("any", False)
                group = "required" if len(pop.args) == 1 else "optional"
                fields[group][key] = {"type": kind, "nullable": nullable}
        return fields

    def resolve_pending_models(self):
        while self.pending:
            name, module_path = self.pending.pop()
            if name not in self.models:
                self.models[name] = self.model(module_path)

    def request_line(self, module_path):
        """(METHOD, url template) of an operation module, or None when it is not one."""
        kwargs_fn = function(self.tree(module_path), "_get_kwargs")
        statements = kwargs_fn.body if kwargs_fn else []
        assigned = [s.value for s in statements if isinstance(s, (ast.Assign, ast.AnnAssign))]
        request = next((d for d in assigned if isinstance(d, ast.Dict)
                        and {"method", "url"} <= {getattr(k, "value", None) for k in d.keys}), None)
        if request is None:
            return None
        values = {k.value: v for k, v in zip(request.keys, request.values)}
        parts = values["url"].values if isinstance(values["url"], ast.JoinedStr) else [values["url"]]
        url = "".join(p.value if isinstance(p, ast.Constant) else "{" + ast.unparse(p.value) + "}" for p in parts)
        return values["method"].value.upper(), url

    def operation(self, module_path):
        """method, url template, query, body and response of one py-client operation module."""
        tree = self.tree(module_path)
        imports = imported_models(tree)
        kwargs_fn = function(tree, "_get_kwargs")
        method, url = self.request_line(module_path)
        parse_fn = function(tree, "_parse_response")
        return {"method": method, "path": url, "query": self.query(kwargs_fn, imports),
                "body": self.body(kwargs_fn, imports),
                "response": self.response(parse_fn, imports), "statuses": documented_statuses(parse_fn)}

    def query(self, kwargs_fn, imports):
        arguments = {a.arg: a.annotation for a in kwargs_fn.args.kwonlyargs if a.arg != "body"}
        wire_name = {}
        for node in ast.walk(kwargs_fn):
            if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript)
                    and getattr(node.targets[0].value, "id", None) == "params"
                    and isinstance(node.value, ast.Name)):
                local = node.value.id
                argument = local if local in arguments else local[len("json_"):]
                wire_name[argument] = node.targets[0].slice.value
        query = {}
        for argument, annotation in arguments.items():
            name = wire_name.get(argument, argument)
            if name not in PAGINATION_PARAMS:
                query[name] = self.query_param(annotation, imports)
        return query

    def query_param(self, annotation, imports):
        kind = self.type_of(annotation, imports)[0]
        is_list = kind.startswith("list[")
        inner = kind[len("list["):-1] if is_list else kind
        param = {}
        enum_names = [k[len("enum:"):] for k in inner.split("|") if k.startswith("enum:")]
        if enum_names:
            param["enum"] = [v for name in enum_names for v in self.enums[name]]
            inner = "enum"
        elif inner.startswith("model:") or "|" in inner:
            inner = "any"
        param["type"] = inner + ("[]" if is_list else "")
        return param

    def body(self, kwargs_fn, imports):
        argument = next((a for a in kwargs_fn.args.kwonlyargs if a.arg == "body"), None)
        if argument is None:
            return None
        members = union_members(argument.annotation)
        json_member = members[0]
        for node in ast.walk(kwargs_fn):
            if (isinstance(node, ast.If) and isinstance(node.test, ast.Call)
                    and getattr(node.test.func, "id", None) == "isinstance"
                    and '_kwargs["json"]' in ast.unparse(node.body[0])):
                json_member = node.test.args[1]
        return self.shape(self.single_type(json_member, imports), with_fields=True)

    def response(self, parse_fn, imports):
        members = [m for m in union_members(parse_fn.returns) if getattr(m, "id", None) not in ("Any", "None")]
        if not members:
            return None
        success = success_models(parse_fn)
        chosen = next((m for m in members if success & {n.id for n in ast.walk(m) if isinstance(n, ast.Name)}), members[0])
        return self.shape(self.single_type(chosen, imports), with_fields=False)

    def shape(self, kind, with_fields):
        is_list = kind.startswith("list[")
        inner = kind[len("list["):-1] if is_list else kind
        if not inner.startswith("model:"):
            return {"model": None, "type": inner, "list": is_list}
        name = inner[len("model:"):]
        if not with_fields:
            return {"model": name, "list": is_list}
        self.resolve_pending_models()
        fields = self.models[name]
        return {"model": name, "list": is_list,
                "required": {k: v["type"] for k, v in fields["required"].items()},
                "optional": {k: v["type"] for k, v in fields["optional"].items()}}


def success_models(parse_fn):
    """Models `from_dict` reads in the branches for 2xx statuses (the others describe error bodies)."""
    found = set()
    for node in ast.walk(parse_fn):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        statuses = [c.value for c in node.test.comparators if isinstance(c, ast.Constant) and isinstance(c.value, int)]
        if not any(200 <= status < 300 for status in statuses):
            continue
        for inner in (n for statement in node.body for n in ast.walk(statement)):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "from_dict":
                if isinstance(inner.func.value, ast.Name):
                    found.add(inner.func.value.id)
    return found


def documented_statuses(parse_fn):
    """The statuses the schema documents: those `_parse_response` answers. Branches that only raise (the 404 the
    client refuses for every operation) are not answers."""
    found = set()
    for node in ast.walk(parse_fn):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
            continue
        if all(isinstance(statement, ast.Raise) for statement in node.body):
            continue
        found.update(c.value for c in node.test.comparators if isinstance(c, ast.Constant) and isinstance(c.value, int))
    return sorted(found)


def read_served(path):
    rows = [line.split() + [""] for line in Path(path).read_text().splitlines() if len(line.split()) >= 2]
    return [{"method": row[0].upper(), "path": row[1], "kind": row[2]} for row in rows]


def index_client_operations(contract, served):
    """`METHOD /api/x/{}/` -> operation module paths, parsing only modules that mention a served path prefix."""
    prefixes = {'"' + re.split(r":[A-Za-z_]", route["path"])[0] for route in served}
    index = {}
    for path, text in sorted(contract.sources.items()):
        if path.startswith(API_PREFIX) and any(prefix in text for prefix in prefixes):
            request = contract.request_line(path)
            if request:
                index.setdefault(path_key(*request), []).append(path)
    return index


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    sources = read_sources(argv[1])
    served = read_served(argv[2])
    output = Path(argv[3]) if len(argv) == 4 else DEFAULT_OUTPUT
    contract = Contract(sources)
    index = index_client_operations(contract, served)
    operations, ours_only, ambiguous = [], [], []
    for route in served:
        candidates = sorted(index.get(path_key(route["method"], route["path"]), []))
        if not candidates:
            ours_only.append(route)
            continue
        if len(candidates) > 1:
            ambiguous.append((route, candidates))
        details = contract.operation(candidates[0])
        operations.append({"operation": Path(candidates[0]).stem, "served": route["path"], **details})
        route["query"] = details["query"]
    contract.resolve_pending_models()
    operations.sort(key=lambda o: (o["path"], o["method"]))
    document = {"operations": operations, "models": contract.models, "enums": contract.enums}
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    print(f"wrote {output}: {len(operations)} operations, {len(contract.models)} models, "
          f"{len(contract.enums)} enums")
    print_summary(served, operations, ours_only, ambiguous)


def print_summary(served, operations, ours_only, ambiguous):
    kind_of = {(route["method"], route["path"]): route["kind"] for route in served}
    print(f"\nours-only routes (no py-client operation): {len(ours_only)}")
    for route in ours_only:
        print(f"  {route['method']} {route['path']}")
    for route, candidates in ambiguous:
        print(f"  ambiguous: {route['method']} {route['path']} -> {', '.join(candidates)} (used first)")
    print("\nserved kind differs from the py-client response:")
    for operation in operations:
        kind = kind_of[(operation["method"], operation["served"])]
        response = operation["response"]
        expected = "empty" if response is None else "list" if response["list"] else "object"
        if kind and kind != expected:
            print(f"  {operation['method']} {operation['served']}: served {kind}, py-client {expected}")
    print("\nquery params per list route:")
    for route in served:
        if route["kind"] == "list" and "query" in route:
            print(f"  {route['method']} {route['path']} ({len(route['query'])}): {' '.join(sorted(route['query']))}")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Checks the operation-search task sets against the OpenAPI documents they name.

For every task file (default: every *.yaml next to this script and in the
fresh sets' directories, fresh/ to fresh6/, and in others/, the blind sets of
the corpus's other documents)
it loads the document named by `document:` (relative to the task file) and
reports, all at once, every problem it finds:

  - an operationId in `ops` that the document does not define;
  - a task with no ops, the same op twice, no `area`, or a field other than
    task, area, ops and note;
  - a task text that appears twice, or is outside 3-20 words;
  - fewer than --min-tasks tasks in a file, or more than --max-per-area in one area
    (for a file in a blind set, fresh/ to fresh6/ or others/: --fresh-min-tasks and
    --fresh-max-per-area);
  - a task text that also appears in another file checked in the same run (a
    fresh set must not repeat the older sets or another fresh set); texts are compared in lower case
    with punctuation and spacing ignored.

It then prints per file: the task count, reads against writes (a read is a task
whose ops are all GET), the count per area, and the tasks that list a
deprecated operation (allowed; listed so a reader can see them).

The documents live outside the repository (../shared/openapi beside the main
checkout). If a document is not where the task file says, set OPENAPI_DIR to
the directory that holds github/ and stripe/; the part of the path after
"openapi/" is looked up there.

Needs PyYAML (Debian: python3-yaml). Exit status 1 if any problem was found.

Usage: python3 check.py [--min-tasks N] [--max-per-area N] [--fresh-min-tasks N]
                        [--fresh-max-per-area N] [task.yaml ...]
"""

import argparse
import collections
import glob
import json
import os
import re
import sys

try:
    import yaml
except ImportError:
    sys.exit("check.py: needs PyYAML (apt-get install python3-yaml, or pip install pyyaml)")

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def load_yaml(path):
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=loader)


def resolve_document(task_file, document):
    path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(task_file)), document))
    if os.path.exists(path):
        return path
    base = os.environ.get("OPENAPI_DIR")
    marker = "openapi/"
    if base and marker in document:
        alt = os.path.join(base, document.split(marker, 1)[1])
        if os.path.exists(alt):
            return alt
    return path


def operations(doc_path):
    """Returns {operationId: (method, path, deprecated)} for every operation in the document."""
    if doc_path.endswith(".json"):
        with open(doc_path, encoding="utf-8") as f:
            doc = json.load(f)
    else:
        doc = load_yaml(doc_path)
    ops = {}
    for path, item in (doc.get("paths") or {}).items():
        for method in METHODS:
            op = item.get(method)
            if isinstance(op, dict) and op.get("operationId"):
                ops[op["operationId"]] = (method.upper(), path, bool(op.get("deprecated")))
    return ops


def text_key(text):
    """Returns the form in which task texts are compared across files: lower case, words only."""
    return " ".join(re.findall(r"\w+", text.lower()))


# FRESH_DIRS are the directories of the sets written blind: the fresh sets, each for one ranking
# round, and others/, for documents the ranking was never tuned on (README.md, "The fresh sets",
# "The second fresh sets" and "The other APIs").
FRESH_DIRS = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "others")


def fresh_dir(task_file):
    """Returns the blind set's directory a task file is in (fresh to fresh6, others), or "" for an older set."""
    d = os.path.basename(os.path.dirname(os.path.abspath(task_file)))
    return d if d in FRESH_DIRS else ""


def check_file(task_file, min_tasks, max_per_area, texts):
    """Checks one task file, appending (text key, where) for each task to texts; returns its problems."""
    problems = []
    data = load_yaml(task_file)
    if not isinstance(data, dict) or "document" not in data or "tasks" not in data:
        return [f"{task_file}: needs top-level 'document' and 'tasks'"]
    doc_path = resolve_document(task_file, data["document"])
    if not os.path.exists(doc_path):
        return [f"{task_file}: document {data['document']} not found at {doc_path} (set OPENAPI_DIR)"]
    ops = operations(doc_path)
    tasks = data["tasks"] or []

    seen_text = {}
    areas = collections.Counter()
    reads = writes = 0
    deprecated_uses = []
    for i, t in enumerate(tasks, 1):
        where = f"{task_file}: task {i}"
        text = (t or {}).get("task")
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}: no task text")
            continue
        where = f'{where} "{text}"'
        extra = sorted(set(t) - {"task", "area", "ops", "note"})
        if extra:
            problems.append(f"{where}: unknown field(s) {', '.join(extra)}")
        key = " ".join(text.lower().split())
        if key in seen_text:
            problems.append(f"{where}: same text as task {seen_text[key]}")
        seen_text.setdefault(key, i)
        texts.append((text_key(text), where))
        words = len(text.split())
        if not 3 <= words <= 20:
            problems.append(f"{where}: {words} words, want 3-20")
        area = t.get("area")
        if not area:
            problems.append(f"{where}: no area")
        areas[area] += 1
        listed = t.get("ops") or []
        if not listed:
            problems.append(f"{where}: no ops")
        for op, n in collections.Counter(listed).items():
            if n > 1:
                problems.append(f"{where}: {op} listed {n} times")
        unknown = sorted({op for op in listed if op not in ops})
        for op in unknown:
            problems.append(f"{where}: {op} is not an operationId in {os.path.basename(doc_path)}")
        known = [op for op in listed if op in ops]
        if known and all(ops[op][0] == "GET" for op in known):
            reads += 1
        elif known:
            writes += 1
        dep = [op for op in known if ops[op][2]]
        if dep:
            deprecated_uses.append((text, dep, len(dep) == len(known)))

    if len(tasks) < min_tasks:
        problems.append(f"{task_file}: {len(tasks)} tasks, want at least {min_tasks}")
    for area, n in sorted(areas.items(), key=lambda kv: str(kv[0])):
        if area and n > max_per_area:
            problems.append(f"{task_file}: area {area} has {n} tasks, want at most {max_per_area}")

    name = os.path.join(fresh_dir(task_file), os.path.basename(task_file))
    print(f"{name}: {len(tasks)} tasks over {os.path.basename(doc_path)} "
          f"({len(ops)} operations); {reads} reads, {writes} writes; {len(areas)} areas")
    for area, n in sorted(areas.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        print(f"  {n:3d}  {area}")
    for text, dep, only in deprecated_uses:
        note = "ONLY deprecated operations" if only else "also lists deprecated"
        print(f'  {note}: "{text}": {", ".join(dep)}')
    if any(only for _, _, only in deprecated_uses):
        problems.append(f"{task_file}: a task served only by deprecated operations")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-tasks", type=int, default=60)
    ap.add_argument("--max-per-area", type=int, default=5)
    ap.add_argument("--fresh-min-tasks", type=int, default=40)
    ap.add_argument("--fresh-max-per-area", type=int, default=3)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    files = args.files or [f for d in ("",) + FRESH_DIRS
                           for f in sorted(glob.glob(os.path.join(here, d, "*.yaml")))]
    problems = []
    texts_by_file = {}
    for f in files:
        texts_by_file[f] = []
        if fresh_dir(f):
            problems += check_file(f, args.fresh_min_tasks, args.fresh_max_per_area, texts_by_file[f])
        else:
            problems += check_file(f, args.min_tasks, args.max_per_area, texts_by_file[f])
    first = {}
    for f in files:
        seen_here = set()
        for key, where in texts_by_file[f]:
            if key in first and key not in seen_here:
                problems.append(f"{where}: same text as {first[key]}")
            seen_here.add(key)
        for key, where in texts_by_file[f]:
            first.setdefault(key, where)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check.py: {len(problems)} problem(s)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

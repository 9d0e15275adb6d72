#!/usr/bin/env python3
"""Lists the candidate terms of generator/searchterms/glossary.tsv.

A person asks for what they want in everyday words; an API names it with a
product or technical term ("referrers", "codespaces", "billing portal").
The glossary gives such terms the everyday words. Its candidate terms are
taken mechanically from the URL paths of the API documents of the
repository's corpus: every word of a literal path segment (split at case
changes and punctuation, two letters or more, no version like v1) and every
multi-word segment as a whole ("value_lists" -> "value lists"), with the
most operations that use it in one document, the documents, and an example
path. The readme-oas-examples directory (specification examples, not APIs)
is left out.

Which terms to keep and their phrases were written by people from general
knowledge, without looking at any evaluation task (see README.md).

Usage: python3 terms.py ../../../../shared/openapi > candidates.tsv
"""
import collections
import json
import os
import re
import sys

import yaml

METHODS = ('get', 'put', 'post', 'delete', 'patch')


def load(path):
    with open(path) as f:
        return json.load(f) if path.endswith('.json') else yaml.safe_load(f)


def split(segment):
    segment = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', segment)
    return [w.lower() for w in re.split(r'[^A-Za-z0-9]+', segment) if w and not w.isdigit()]


def terms_of(path):
    terms = set()
    for segment in path.split('/'):
        if not segment or segment[0] in '{:':
            continue
        ws = [w for w in split(segment) if not re.match(r'^v\d+$', w) and w != 'json']
        terms.update(w for w in ws if len(w) >= 2)
        if len(ws) > 1:
            terms.add(' '.join(ws))
    return terms


def main(root):
    most = collections.Counter()
    example = {}
    where = collections.defaultdict(set)
    for d, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if not f.endswith(('.json', '.yaml', '.yml')):
                continue
            p = os.path.join(d, f)
            name = os.path.relpath(p, root).split(os.sep)[0]
            if name == 'readme-oas-examples':
                continue
            try:
                doc = load(p)
            except Exception:
                continue
            if not isinstance(doc, dict) or not isinstance(doc.get('paths'), dict):
                continue
            count = collections.Counter()
            first = {}
            for path, item in doc['paths'].items():
                if not isinstance(item, dict):
                    continue
                n = sum(1 for m in item if m in METHODS)
                for t in terms_of(path):
                    count[t] += n
                    first.setdefault(t, path)
            for t, n in count.items():
                if n < 1:
                    continue
                where[t].add(name)
                if n > most[t]:
                    most[t], example[t] = n, name + ' ' + first[t]
    print('# term\toperations (most in one document)\tdocuments\texample path')
    for t in sorted(most, key=lambda t: (-most[t], t)):
        print(f"{t}\t{most[t]}\t{','.join(sorted(where[t]))}\t{example[t]}")


if __name__ == '__main__':
    main(sys.argv[1])

#!/usr/bin/env python3
"""Merges the written glossary parts into generator/searchterms/glossary.tsv.

Each part is "term<TAB>phrase, phrase...[<TAB>context, context...]" per
line. A term's singular and plural ("runner", "runners") are one entry, as
the generator looks them up alike: their phrases are joined, each once, in
the order written, and so are their context words; an entry is scoped
(has context words) only if every line of it is. Lines are sorted by term
so the table diffs well.

Usage: python3 merge.py part.tsv... > ../../../generator/searchterms/glossary.tsv
"""
import re
import sys


def singular(w):
    # The same reduction as generator/searchterms.singular.
    if len(w) <= 3:
        return w
    if w.endswith('ies'):
        return w[:-3] + 'y'
    if w.endswith(('sses', 'uses', 'xes', 'ches', 'shes')):
        return w[:-2]
    if w.endswith(('ss', 'us', 'is')):
        return w
    if w.endswith('s'):
        return w[:-1]
    return w


def words(s):
    s = re.sub(r'([a-z])([A-Z])', r'\1 \2', s)
    return [w.lower() for w in re.split(r'[^A-Za-z]+', s) if w]


def main(parts):
    entries = {}
    for part in parts:
        for line in open(part):
            line = line.rstrip('\n')
            if not line or line.startswith('#') or '\t' not in line:
                continue
            cols = line.split('\t')
            term, phrases = cols[0], cols[1]
            context = [w.strip().lower() for w in (cols[2] if len(cols) > 2 else '').split(',') if w.strip()]
            key = ' '.join(singular(w) for w in words(term))
            if not key:
                continue
            name, have, scope = entries.setdefault(key, (term, [], []))
            for p in phrases.split(','):
                p = ' '.join(p.split()).lower()
                if p and p not in have and p != term:
                    have.append(p)
            if not context:
                scope.append(None)  # holds in any API
            else:
                scope.extend(w for w in context if w not in scope)
    print('# API jargon in everyday words: term<TAB>phrase, phrase...[<TAB>context, context...] (see glossary.go).')
    print('# Regenerate: bench/search/glossary (README.md).')
    for key in sorted(entries):
        term, phrases, scope = entries[key]
        if not phrases:
            continue
        if None in scope:
            print(f"{term}\t{', '.join(phrases)}")
        else:
            print(f"{term}\t{', '.join(phrases)}\t{', '.join(scope)}")


if __name__ == '__main__':
    main(sys.argv[1:])

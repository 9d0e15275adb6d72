#!/usr/bin/env python3
"""Merges the written glossary parts into generator/searchterms/glossary.tsv.

Each part is "term<TAB>phrase, phrase...[<TAB>context, context...]" per
line. A term's singular and plural ("runner", "runners") are one entry, as
the generator looks them up alike: their phrases are joined, each once, in
the order written, and so are their context words; an entry is scoped
(has context words) only if every line of it is. Lines are sorted by term
so the table diffs well.

Parts after --new-only extend the ones before: their terms already
present (in either number) are left out, so an extension never changes an
entry that was measured, and so are the terms of the file given with
--not-in (terms.py's candidates: the corpus's own path terms, which the
first writers judged already, keeping the jargon and skipping the
everyday words).

Last, the lines of the file given with --fix (fixes.tsv: the changes made
by hand after measuring, each with its reason in a comment) replace the
entries of their terms; "term<TAB>-" drops one.

Usage: python3 merge.py part.tsv... [--not-in candidates.tsv] [--fix fixes.tsv] [--new-only part.tsv...] > ../../../generator/searchterms/glossary.tsv
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


def key_of(term):
    return ' '.join(singular(w) for w in words(term))


def main(args):
    entries = {}
    settled = None  # the keys before --new-only, and those of --not-in
    judged = set()
    fixes = []
    parts = []
    while args:
        a = args.pop(0)
        if a == '--fix':
            fixes = [line.rstrip('\n').split('\t') for line in open(args.pop(0)) if line.strip() and not line.startswith('#')]
        elif a == '--not-in':
            judged = {key_of(line.split('\t')[0]) for line in open(args.pop(0)) if not line.startswith('#')}
        else:
            parts.append(a)
    for part in parts:
        if part == '--new-only':
            settled = set(entries) | judged
            continue
        for line in open(part):
            line = line.rstrip('\n')
            if not line or line.startswith('#') or '\t' not in line:
                continue
            cols = line.split('\t')
            term, phrases = cols[0], cols[1]
            context = [w.strip().lower() for w in (cols[2] if len(cols) > 2 else '').split(',') if w.strip()]
            key = key_of(term)
            if not key or settled is not None and key in settled:
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
    for cols in fixes:
        key = key_of(cols[0])
        if cols[1] == '-':
            entries.pop(key, None)
        else:
            context = [w.strip() for w in cols[2].split(',')] if len(cols) > 2 else [None]
            entries[key] = (cols[0], [p.strip() for p in cols[1].split(',')], context)
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

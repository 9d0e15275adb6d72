#!/usr/bin/env python3
"""Builds generator/searchterms/wordnet.tsv: the synonyms, from WordNet 3.0, of
the words that API documents use.

Operation search matches the words a person uses with the words of an API
document. The generator adds to each operation's search terms the synonyms
of the words of its name and title (search.Doc.Keywords), so that "bill"
finds "invoice" and "take away" finds "remove" without a hand-written table.

Keys are the words (split at case changes, lowercased, 3 letters or more)
that occur at least 3 times in the API documents under the directory given
(the repository's corpus: ../shared/openapi), and the words of everyday
English: the single-word lemmas that WordNet's sense-tagged corpus saw at
least once (tagsense_cnt >= 1 in its index files, about 16,700: payroll,
ledger, shipment, tenant, prescription...), so that an API of a domain
the corpus lacks gets synonyms too; values are the other words of
the key's WordNet synsets in its SENSES most frequent senses per part of
speech (default 2), phrases of at most two words. It is general English: it
is built without looking at any evaluation task.

WordNet 3.0 is Princeton University's; its license (permissive, BSD-like) is
in docs/licenses.md and NOTICE. Debian: apt-get install wordnet-base.

Usage: python3 wordnet.py ../../../../shared/openapi > ../../../generator/searchterms/wordnet.tsv
"""
import collections
import os
import re
import sys

WN = os.environ.get('WORDNET', '/usr/share/wordnet')
SENSES = int(os.environ.get('SENSES', '2'))
POS = {'n': 'noun', 'v': 'verb', 'a': 'adj', 'r': 'adv'}
# RELATIONS are the WordNet pointers whose synsets' words are added after
# the synonyms: '@' hypernym (a payment → a transfer), '~' hyponym, '+'
# derivation (publish → publication). Empty by default.
RELATIONS = set(os.environ.get('RELATIONS', '').split())
MAXREL = int(os.environ.get('MAXREL', '6'))
links = {}


def synsets():
    """Maps (part of speech, offset) to the synset's words."""
    data = {}
    for p, name in POS.items():
        with open(os.path.join(WN, 'data.' + name), encoding='latin-1') as f:
            for line in f:
                if line.startswith('  '):
                    continue  # the license header
                parts = line.split(' | ')[0].split()
                off, cnt = parts[0], int(parts[3], 16)
                words = [parts[4 + 2 * i].lower() for i in range(cnt)]
                data[(p, off)] = [re.sub(r'\(.*\)$', '', w) for w in words]
                at = 4 + 2 * cnt
                for i in range(int(parts[at])):
                    sym, o, tp = parts[at + 1 + 4 * i: at + 4 + 4 * i]
                    if sym in RELATIONS:
                        links.setdefault((p, off), []).append((sym, 'a' if tp == 's' else tp, o))
    return data


def index_entries():
    """Yields each lemma line of WordNet's index files: its part of speech and its fields."""
    for p, name in POS.items():
        with open(os.path.join(WN, 'index.' + name), encoding='latin-1') as f:
            for line in f:
                if not line.startswith('  '):  # the license header
                    yield p, line.split()


def senses():
    """Maps each lemma to its synsets, most frequent sense first per part of speech."""
    idx = {}
    for p, parts in index_entries():
        lemma, n = parts[0], int(parts[2])
        idx.setdefault(lemma, []).extend((p, o, rank) for rank, o in enumerate(parts[-n:]))
    return idx


def common():
    """The single-word lemmas that WordNet's semantic concordance tagged at
    least once (tagsense_cnt, the field before the synset offsets): the
    English words in everyday use."""
    out = set()
    for _, parts in index_entries():
        lemma, n = parts[0], int(parts[2])
        if int(parts[-n - 1]) >= 1 and lemma.isalpha() and len(lemma) > 2:
            out.add(lemma)
    return out


def vocabulary(root, min_count=3):
    counts = collections.Counter()
    for d, _, files in os.walk(root):
        for fn in sorted(files):
            if not fn.endswith(('.json', '.yaml', '.yml')):
                continue
            with open(os.path.join(d, fn), encoding='utf-8', errors='replace') as f:
                text = f.read()
            for w in re.findall(r'[A-Za-z]+', text):
                for part in re.sub(r'([a-z])([A-Z])', r'\1 \2', w).split():
                    counts[part.lower()] += 1
    return {w for w, n in counts.items() if n >= min_count and len(w) > 2}


def main():
    data, idx, voc = synsets(), senses(), vocabulary(sys.argv[1]) | common()
    print('# Synonyms of the words of API documents, from WordNet 3.0 (Princeton University; see NOTICE).')
    print('# Regenerate: bench/search/wordnet/wordnet.py (senses per part of speech: %d). word<TAB>synonym,...' % SENSES)
    for w in sorted(voc):
        rel = []
        for p, off, rank in idx.get(w, []):
            if rank >= SENSES:
                continue
            for s in data[(p, off)]:
                s = s.replace('_', ' ')
                if s != w and s not in rel and len(s.split()) <= 2:
                    rel.append(s)
        extra = []
        for p, off, rank in idx.get(w, []):
            if rank >= SENSES:
                continue
            for sym, tp, o in links.get((p, off), []):
                for s in data.get((tp, o), [])[:1]:
                    s = s.replace('_', ' ')
                    if s != w and s not in rel and s not in extra and len(s.split()) <= 1:
                        extra.append(s)
        rel += extra[:MAXREL]
        if rel:
            print(w + '\t' + ','.join(rel))


if __name__ == '__main__':
    main()

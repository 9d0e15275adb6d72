#!/usr/bin/env python3
"""Builds runtime/search/english.txt: the everyday English words that
operation search does not read as misspellings.

Search reads a word of a request that no operation, synonym or action
knows as the known term one edit away ("subscirption": subscription). A
real word the API does not use ("driver", "market", "brought") is no
misspelling, and read as one it would stand for another ("drive",
"marker", "bought"). The list holds the single-word lemmas of WordNet 3.0
that its sense-tagged corpus saw at least once (tagsense_cnt >= 1 in its
index files) and the irregular forms of those lemmas (its .exc files:
brought, children), of MINLEN letters or more (default 6: shorter words
are not read as misspellings at all). It is general English, built
without looking at any evaluation task.

WordNet 3.0 is Princeton University's; its license (permissive, BSD-like) is
in docs/licenses.md and NOTICE. Debian: apt-get install wordnet-base.

Usage: python3 english.py > ../../../runtime/search/english.txt
"""
import os
import re
import sys

WN = os.environ.get('WORDNET', '/usr/share/wordnet')
MINLEN = int(os.environ.get('MINLEN', '6'))
WORD = re.compile(r'[a-z]+')


def main():
    common = set()
    for pos in ('noun', 'verb', 'adj', 'adv'):
        with open(os.path.join(WN, 'index.' + pos)) as f:
            for line in f:
                if line.startswith(' '):
                    continue
                fields = line.split()
                # lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt ...
                pointers = int(fields[3])
                if int(fields[5 + pointers]) >= 1 and WORD.fullmatch(fields[0]):
                    common.add(fields[0])
    words = {w for w in common if len(w) >= MINLEN}
    for pos in ('noun', 'verb', 'adj', 'adv'):
        with open(os.path.join(WN, pos + '.exc')) as f:
            for line in f:
                form, *bases = line.split()
                if len(form) >= MINLEN and WORD.fullmatch(form) and any(b in common for b in bases):
                    words.add(form)
    sys.stdout.write(''.join(w + '\n' for w in sorted(words)))


if __name__ == '__main__':
    main()

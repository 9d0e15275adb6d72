package search

import (
	"slices"
	"strings"
)

// phrasalVerbs are the English phrasal verbs and idioms people use for
// what an API does, each line a word of synonymGroups and the phrases
// that mean it. A phrase's first word is its verb, the rest its particles
// ("off", "up", "rid of"); read apart, the verb says something else
// ("kick", "spin") and the particle is taken for a content word. A
// phrase matches with its particles next to its verb or after the verb's
// object ("hand the repo over", "close it out"); a "*" marks a phrase
// that matches only around an object ("kick bob off" removes someone,
// "kick off" starts something). Like synonymGroups, the table is general
// English, written for any API.
const phrasalVerbs = `
run: kick off, fire off, fire up, start up, boot up
create: set up, put together, draw up, whip up, spin up
register: sign up, hook up
stop: shut down, shut off, spin down, power down, wind down
disable: turn off, switch off
enable: turn on, switch on, power on
pause: hold off, put on hold
delete: get rid of, take out, kick out, kick * off, throw away, throw out, wipe out, clean up, clear out, tear down, do away with, get * out
revoke: cut off
close: close out, close down, wrap up
review: look over, look through, go over, check over
comment: post on, weigh in, chime in, write back
approve: sign off, sign off on
move: hand over, hand off, move over
get: look up, pull up
find: dig up, find out, track down, hunt down, look for
restore: put back, bring back, roll back
watch: keep an eye on, keep track of, keep tabs on
download: back up
refund: pay back, claw back
payout: pay out, cash out
reaction: thumbs up, thumbs down
login: sign in
logout: sign out, log out, log off
subscribe: opt in
unsubscribe: opt out
fund: top up, top off
cancel: back out of
postpone: put off, push back
pause: hold back
restart: start over, power cycle
note: jot down, write down
replace: swap out, switch out
delete: take down, boot out
invite: loop * in, rope in
reject: turn down, turn away
block: lock out, shut out
allow: let in
notify: let * know
reply: write back, get back to
forward: pass along
deploy: roll out
revert: back out
uncollectible: write off
pay: pay off, settle up
resolve: sort out, iron out
remind: follow up, chase up
discount: knock * off
close: check off, tick off
deprecate: phase out
create: stand up
fork: spin off
end: hang up
call: call back
scale: scale up, scale down
message: reach out
dm: direct message, private message
usage: burn through, use up, eat up, chew through, rack up
protect: lock down, lock * down
`

// phrase is one entry of phrasalVerbs: the particles that follow its
// verb, whether an object must come between them, and the word it means.
type phrase struct {
	particles []string
	gap       bool
	word      string
}

// phrases maps the verb of each phrasal verb (see verbKey) to its
// phrases, the longest first, so that "put on hold" is tried before a
// shorter phrase of "put".
var phrases = func() map[string][]phrase {
	m := map[string][]phrase{}
	for _, line := range strings.Split(phrasalVerbs, "\n") {
		word, list, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for _, p := range strings.Split(list, ",") {
			ws := strings.Fields(p)
			if len(ws) < 2 {
				continue
			}
			ph := phrase{word: strings.TrimSpace(word)}
			for _, w := range ws[1:] {
				if w == "*" {
					ph.gap = true
				} else {
					ph.particles = append(ph.particles, w)
				}
			}
			key := verbKey(ws[0], Stem(ws[0]))
			m[key] = append(m[key], ph)
		}
	}
	for _, ps := range m {
		slices.SortStableFunc(ps, func(a, b phrase) int { return len(b.particles) - len(a.particles) })
	}
	return m
}()

// maxObjectWords is how many words a phrasal verb's object may take
// between the verb and its particles ("hand the old repo over").
const maxObjectWords = 3

// objectWords are the function words an object between a verb and its
// particles may hold; any other stop word ("are", "to") ends the
// object, so that "pull requests are up for review" is no phrase.
var objectWords = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "these": true, "those": true,
	"it": true, "them": true, "him": true, "her": true, "me": true, "us": true,
	"my": true, "our": true, "your": true, "their": true, "his": true, "its": true,
	"all": true, "some": true, "any": true,
}

// verbKey is how a verb is looked up among the phrases: by its stem, so
// that every form of it is ("kicked off", "shuts down"), and as itself
// for a stop word ("do away with"), which has no stem. Irregular pasts
// are looked up by their present's (see irregularVerbs).
func verbKey(word, stem string) string {
	if stopWords[word] || stem == "" {
		return word
	}
	return stem
}

// irregularPasts are the past forms of the verbs of phrasalVerbs that
// their stems do not reach, and their presents.
const irregularPasts = `got get gotten get took take taken take threw throw thrown throw kept keep
held hold spun spin dug dig brought bring went go gone go gave give given give paid pay
tore tear torn tear wound wind did do done do drew draw drawn draw
wrote write written write stood stand hung hang`

// irregularVerbs maps each of irregularPasts to its present's key.
var irregularVerbs = func() map[string]string {
	m := map[string]string{}
	ws := strings.Fields(irregularPasts)
	for i := 0; i+1 < len(ws); i += 2 {
		m[ws[i]] = verbKey(ws[i+1], Stem(ws[i+1]))
	}
	return m
}()

// matchPhrase finds the phrasal verb whose verb is ws[i] (its stem
// stems[i]; values marks the words of values): the word it means and
// where its particles are (n words from position at on), or "".
func matchPhrase(ws, stems []string, values []bool, i int) (word string, at, n int) {
	key, ok := irregularVerbs[ws[i]]
	if !ok {
		key = verbKey(ws[i], stems[i])
	}
	ps := phrases[key]
	if ps == nil {
		return "", 0, 0
	}
	// Particles next to the verb first, then after an object. The words
	// of a value in the object ("hand the mobile-app repo over", "kick
	// user 42 off") are one name: they do not count towards its length.
	objectLen := 0
	for gap := 0; i+1+gap < len(ws); gap++ {
		if k := i + gap; gap > 0 && !values[k] {
			if stopWords[ws[k]] && !objectWords[ws[k]] {
				return "", 0, 0
			}
			if _, past := irregularVerbs[ws[k]]; past || len(ws[k]) > 4 && strings.HasSuffix(ws[k], "ed") && !strings.HasSuffix(ws[k], "eed") {
				// "get paid out" is paid out, not got out of the way:
				// a verb's past is no object.
				return "", 0, 0
			}
			if objectLen++; objectLen > maxObjectWords {
				return "", 0, 0
			}
		}
		// After an object, the phrases that need one come first.
		for _, needObject := range []bool{true, false} {
			for _, p := range ps {
				if p.gap != needObject || p.gap && gap == 0 {
					continue
				}
				if at := i + 1 + gap; hasWords(ws, at, p.particles) {
					return p.word, at, len(p.particles)
				}
			}
		}
	}
	return "", 0, 0
}

// hasWords says whether ws holds want from position at on.
func hasWords(ws []string, at int, want []string) bool {
	if at+len(want) > len(ws) {
		return false
	}
	for k, w := range want {
		if ws[at+k] != w {
			return false
		}
	}
	return true
}

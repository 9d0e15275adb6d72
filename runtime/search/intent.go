package search

import "strings"

// actionGroups are the groups of synonymGroups that name what an
// operation does (its verb), by their first word.
var actionGroups = map[string]bool{
	"create": true, "delete": true, "update": true, "get": true, "list": true, "search": true,
	"archive": true, "close": true, "restore": true, "upload": true, "download": true, "copy": true,
	"move": true, "merge": true, "approve": true, "reject": true, "invite": true, "leave": true,
	"subscribe": true, "unfollow": true, "star": true, "comment": true, "send": true, "pay": true,
	"refund": true,
}

// actions maps the stem of each word of an action group to the groups it
// belongs to ("show" to get and list).
var actions = func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(synonymGroups, "\n") {
		group := strings.Fields(line)
		if len(group) == 0 || !actionGroups[group[0]] {
			continue
		}
		for _, w := range group {
			if strings.Contains(w, "-") {
				continue
			}
			m[Stem(w)] = append(m[Stem(w)], group[0])
		}
	}
	return m
}()

// maxActionWords is how far into a text its verb is looked for: a
// request names what to do first ("please delete…", "we need to close…"),
// a title starts with it ("Create a label").
const maxActionWords = 3

// action returns the action groups of the first action word among the
// first few words of text (stop words left out), or nil.
func action(text string) []string {
	return leadingAction(words(text), nil)
}

// leadingAction is action of a text's words; stems, when not nil, holds
// each word's stem.
func leadingAction(ws, stems []string) []string {
	if i := leadingActionAt(ws, stems); i >= 0 {
		return actions[stemAt(ws, stems, i)]
	}
	return nil
}

// leadingActionAt is the index of the word leadingAction reads the
// action from, or -1.
func leadingActionAt(ws, stems []string) int {
	n := 0
	for i, w := range ws {
		// "p" is the paragraph tag that starts many descriptions.
		if stopWords[w] || w == "p" {
			continue
		}
		if actions[stemAt(ws, stems, i)] != nil {
			return i
		}
		if n++; n >= maxActionWords {
			break
		}
	}
	return -1
}

// stemAt is the stem of ws[i]: stems[i], or computed when stems is nil.
func stemAt(ws, stems []string, i int) string {
	if stems != nil {
		return stems[i]
	}
	return Stem(ws[i])
}

// shareAny says whether a and b have a word in common.
func shareAny(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// listAction is the action group of the operations that list.
var listAction = []string{"list"}

// asksForSet says whether a question asks for the members of a set: it
// starts with "which" or "who" ("which runners are offline?", "who can
// push?").
func asksForSet(r request) bool {
	ws := r.words
	return len(ws) > 0 && (ws[0] == "which" || ws[0] == "who")
}

package search

import (
	"slices"
	"strings"
)

// Request frames: people seldom give an assistant a bare imperative.
// They ask "can you close issue 212?", "how do I refund this charge?",
// "is there a way to pause a subscription?", "I'd like to archive the
// old repo", "we need you to rotate the key": a frame of politeness,
// need or ability around the instruction. Read as written, the question
// mark makes a write a question (so read-only operations win) and the
// frame's words take the places where the verb is looked for. Measured
// by wrapping every imperative task of GitHub's and Stripe's sets in a
// frame, "can you …?" cut the top-5 hit rate from 79% to 44% on GitHub
// and from 86% to 60% on Stripe, and "I'd like to …" to 56% and 65%.

// framePrefixes are the fixed frames, as normalized words (normWord).
var framePrefixes = [][]string{
	{"is", "there", "a", "way", "to"},
	{"is", "there", "any", "way", "to"},
	{"is", "it", "possible", "to"},
	{"go", "ahead", "and"},
	{"lets"},
	{"help", "me"},
	{"help", "us"},
	{"how", "to"},
	{"to"},
}

var (
	// frameFillers are the words a request may open with before its
	// frame or its verb.
	frameFillers = map[string]bool{"hey": true, "hi": true, "hello": true, "ok": true, "okay": true,
		"please": true, "pls": true, "kindly": true, "so": true, "um": true, "just": true}
	// frameModals ask for an action: "can you…", "could we…".
	frameModals = map[string]bool{"can": true, "could": true, "would": true, "will": true}
	// frameAsked are who a modal asks: "can you…", "could someone…".
	frameAsked = map[string]bool{"you": true, "u": true, "we": true, "i": true, "someone": true, "somebody": true}
	// frameSubjects say who needs or wants it done: "I", "we'd", "I'm".
	frameSubjects = map[string]bool{"i": true, "we": true, "id": true, "wed": true, "im": true,
		"were": true, "ive": true, "weve": true}
	// frameWants say that the subject needs or wants it done; those that
	// are true take the verb without "to" ("we must", "I wanna").
	frameWants = map[string]bool{"need": false, "needs": false, "want": false, "would": false, "like": false,
		"have": false, "got": false, "trying": false, "going": false, "looking": false, "hoping": false,
		"must": true, "should": true, "gotta": true, "wanna": true}
	// frameHow ask how to do it: "how do I…", "how can we…".
	frameHow = map[string]bool{"do": true, "can": true, "could": true, "should": true, "would": true}
)

// normWord is a field lowercased, without its punctuation and
// apostrophes: "I'd" is "id", "let's" is "lets".
func normWord(field string) string {
	w := strings.ToLower(valueText(field))
	return strings.ReplaceAll(strings.ReplaceAll(w, "'", ""), "’", "")
}

// frameLen returns how many of ws (normalized words from a clause's
// start) are a request frame, 0 when they are none.
func frameLen(ws []string) int {
	at := 0
	for {
		n := frameStep(ws[at:])
		if n == 0 {
			return at
		}
		at += n
	}
}

// wordAt returns ws[i], or "" past its end.
func wordAt(ws []string, i int) string {
	if i < len(ws) {
		return ws[i]
	}
	return ""
}

// frameStep returns the length of one piece of frame at the start of
// ws, or 0.
func frameStep(ws []string) int {
	word := func(i int) string { return wordAt(ws, i) }
	switch {
	case frameFillers[word(0)]:
		return 1
	case frameModals[word(0)] && frameAsked[word(1)]:
		return 2
	case word(0) == "how" && frameHow[word(1)] && frameAsked[word(2)]:
		if word(3) == "go" && word(4) == "about" {
			return 5
		}
		return 3
	case frameSubjects[word(0)]:
		// "I need to", "we'd like to", "I would like you to", "we must".
		i := 1
		for i < 3 && i < len(ws) {
			if _, ok := frameWants[ws[i]]; !ok {
				break
			}
			i++
		}
		if i == 1 {
			return 0
		}
		if frameWants[ws[i-1]] {
			return i
		}
		if frameAsked[word(i)] && word(i) != "i" && word(i) != "we" {
			i++
		}
		if word(i) == "to" {
			return i + 1
		}
		return 0
	}
	for _, p := range framePrefixes {
		if len(ws) >= len(p) && slices.Equal(ws[:len(p)], p) {
			return len(p)
		}
	}
	return 0
}

// dropFrames removes the frame at the start of each clause of a request
// when a word that can be its verb follows (no stop word, no value:
// "can you freeze card ic_42", not "can you this"; "how do I know
// whether…" stays a question). A question asked inside a request ("can
// you tell me who follows me?", "I want to know which invoices are
// overdue") keeps only the question, from its question word on, when
// the request starts with it ("…? show what went into it" shows). It says
// how the request was framed: frameNone, frameAction or frameQuestion.
func dropFrames(fields []string, quoted []bool) ([]string, []bool, frameKind) {
	var outF []string
	var outQ []bool
	kind := frameNone
	start := true
	for i := 0; i < len(fields); i++ {
		if start {
			var ws []string
			for j := i; j < len(fields) && !quoted[j]; j++ {
				ws = append(ws, normWord(fields[j]))
				if endsClause(fields[j]) {
					break
				}
			}
			n := frameLen(ws)
			if n > 0 && n == len(ws) && allFillers(ws) {
				// "hey," "ok so,": a clause of fillers only.
				i += n - 1
				start = true
				continue
			}
			if n > 0 && (n >= len(ws) || endsClause(fields[i+n-1]) || !framesVerb(ws[0], fields[i+n])) {
				n = 0
			}
			if k := embeddedQuestion(ws[n:]); i == 0 && k > 0 && n+k < len(ws) && !endsClause(fields[i+n+k-1]) {
				i += n + k
				kind = frameQuestion
			} else if n > 0 {
				i += n
				kind = frameAction
			}
		}
		outF = append(outF, fields[i])
		outQ = append(outQ, quoted[i])
		start = endsClause(fields[i])
	}
	return outF, outQ, kind
}

// allFillers says whether ws are all frameFillers.
func allFillers(ws []string) bool {
	for _, w := range ws {
		if !frameFillers[w] {
			return false
		}
	}
	return true
}

// frameKind is how a request was framed.
type frameKind int

const (
	frameNone     frameKind = iota
	frameAction             // "can you close issue 212?": an instruction
	frameQuestion           // "can you tell me who…?": a question
)

// embeddedQuestion returns how many of ws lead to a question asked
// inside a request ("tell me", "I wonder", "do you know", "check" before
// who, which, whether…), or 0.
func embeddedQuestion(ws []string) int {
	for k := 0; k < len(ws) && k <= maxEmbedLead; k++ {
		if questionWords[ws[k]] {
			if k > 0 && !(ws[k] == "how" && k+1 < len(ws) && ws[k+1] == "to") {
				return k
			}
			return 0
		}
		if !embedLeads[ws[k]] {
			return 0
		}
	}
	return 0
}

// maxEmbedLead is how many words may lead to an embedded question.
const maxEmbedLead = 4

var (
	// questionWords start an embedded question.
	questionWords = map[string]bool{"who": true, "what": true, "whats": true, "which": true, "whose": true,
		"whether": true, "if": true, "how": true, "when": true, "where": true, "why": true, "whos": true}
	// embedLeads are the words that lead to one: "tell me", "I wonder",
	// "do you know", "find out", "check" ("let me know when…" asks to be
	// notified).
	embedLeads = map[string]bool{"tell": true, "show": true, "me": true, "us": true, "know": true,
		"check": true, "see": true, "find": true, "out": true, "figure": true, "wonder": true, "wondering": true,
		"i": true, "im": true, "do": true, "you": true, "any": true, "idea": true, "curious": true, "to": true,
		"look": true, "up": true, "into": true, "verify": true, "confirm": true, "and": true}
)

// framesVerb says whether field, after a frame that starts with first,
// can be the verb of the instruction it frames.
func framesVerb(first, field string) bool {
	ws := words(field)
	if len(ws) == 0 || strings.ContainsAny(field, "0123456789") {
		return false
	}
	if first == "how" && knowWords[ws[0]] {
		return false
	}
	return !stopWords[ws[0]] || readWords[ws[0]]
}

// knowWords after "how do I" ask a question, not how to act: "how do I
// know whether the payout went through?".
var knowWords = map[string]bool{"know": true, "tell": true, "figure": true, "learn": true, "understand": true}

// causeFirst reads "get maria-dev and the backend team to look over PR
// 88" as "look over PR 88 ask maria-dev and the backend team": to get, ask or
// tell someone to do something asks for that thing, of them, and its
// verb says which operation; read first, "get" would ask to read. The
// request's first clause is reordered when it starts with such a verb,
// its object (up to maxCauseObject fields, not "me" or "us": "get me a
// link to…" reads) and "to" before an instruction (startsInstruction).
func causeFirst(fields []string, quoted []bool) ([]string, []bool) {
	if len(fields) < 2 || quoted[0] || !causeVerbs[normWord(fields[0])] || endsClause(fields[0]) {
		return fields, quoted
	}
	if w := normWord(fields[1]); w == "me" || w == "us" {
		return fields, quoted
	}
	for to := 2; to < len(fields)-1 && to <= maxCauseObject+1; to++ {
		if endsClause(fields[to-1]) {
			break
		}
		next := words(fields[to+1])
		if quoted[to] || normWord(fields[to]) != "to" || endsClause(fields[to]) || len(next) == 0 || !startsInstruction(next[0]) {
			continue
		}
		end := to + 1
		for end < len(fields) && !endsClause(fields[end-1]) {
			end++
		}
		// "ask" stays, after the instruction: what an API calls asking
		// someone to do something (requesting reviewers) holds its
		// synonyms.
		order := slices.Concat(fields[to+1:end], []string{"ask"}, fields[1:to], fields[end:])
		marks := slices.Concat(quoted[to+1:end], []bool{false}, quoted[1:to], quoted[end:])
		return order, marks
	}
	return fields, quoted
}

// maxCauseObject is how many fields the person asked to do something
// may take: "maria-dev and the backend team".
const maxCauseObject = 6

// causeVerbs ask someone to do something.
var causeVerbs = map[string]bool{"get": true, "ask": true, "tell": true}

// guardFirst reads a rule stated as a prohibition ("nobody should be
// able to push to main without a review", "nothing should go to
// production without the release team approving it", "don't let anyone
// delete the repo") as a request to set a protection: what an API calls
// the rules that forbid (branch protection, protection rules) holds the
// word, and the rule is set, not read. It puts "set protect" first when
// the request starts so.
func guardFirst(fields []string, quoted []bool) ([]string, []bool) {
	var ws []string
	for i := 0; i < len(fields) && i < 4 && !quoted[i]; i++ {
		ws = append(ws, normWord(fields[i]))
	}
	word := func(i int) string { return wordAt(ws, i) }
	prohibits := nobody[word(0)] && guardModals[word(1)] ||
		word(0) == "no" && word(1) == "one" && guardModals[word(2)] ||
		(word(0) == "dont" || word(0) == "never") && word(1) == "let" ||
		word(0) == "do" && word(1) == "not" && word(2) == "let"
	if !prohibits {
		return fields, quoted
	}
	return slices.Concat([]string{"set", "protect"}, fields), slices.Concat([]bool{false, false}, quoted)
}

var (
	// nobody start a prohibition: "nobody should…".
	nobody = map[string]bool{"nobody": true, "noone": true, "nothing": true}
	// guardModals follow them: "nobody should", "nothing can".
	guardModals = map[string]bool{"should": true, "shouldnt": true, "can": true, "may": true, "must": true,
		"gets": true, "is": true}
)

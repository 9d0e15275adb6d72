package search

import (
	"slices"
	"strings"
)

// request is a query split into words and stemmed once: the concepts, the
// question form, the verb and the main nouns are all read from it.
type request struct {
	// words are the query's words, lowercased (see words).
	words []string
	// stems are the stem of each word, "" for a stop word.
	stems []string
	// values mark the words of the values the query gives (any
	// whitespace-separated piece with a digit: ids such as "cus_123" or
	// "evt_1", versions such as "v1.2.0", numbers; names, see isName;
	// quoted text; and pieces whose form gives their kind, URLs and
	// variables' names aside, see shapeKind): they name which object, not which
	// operation, and their pieces ("cus", "v1", "acme") would match
	// unrelated words.
	values []bool
	// ids are the prefixes of the typed ids the query gives ("seti" of
	// "seti_123"; see idPrefix).
	ids []string
	// idKinds are, for each of ids, the kinds of object it reads as
	// among the index's collections (Index.readIDs, Index.idKinds).
	idKinds [][][]string
	// kinds are the kinds of thing the query's values are by their form
	// ("@jdoe": a user; see shapeKind).
	kinds []shape
	// person says whether the query's object is a person: the word
	// after its verb is "him", "her" or a user's handle ("take her out
	// of the org", "give @jdoe push access"), or a name the API never
	// uses ("kick bob off the repo"; see Index.readPerson).
	person bool
	// question says whether the query ends with a question mark.
	question bool
	// contents is the term of what a query asks is on or in something,
	// which it does not name: its items ("what's on my board?", "what
	// is in the cart") or its members ("who is in our organization?");
	// "" for any other query.
	contents string
	// count says whether the query asks how many ("how many…", "the
	// number of…").
	count bool
	// period says whether the query asks about a span of time that has
	// passed ("this week", "yesterday", "in the last hour"; see
	// asksForPeriod).
	period bool
	// bound says whether the query bounds a quantity ("over $500",
	// "more than 1000 stars", "1000+"; see asksForBound).
	bound bool
	// untyped says whether the query gives a value of no kind its form
	// or prefix tells: a number ("#88", "PR 19"), a name.
	untyped bool
}

// parseRequest splits and stems query.
func parseRequest(query string) request {
	r := request{question: strings.HasSuffix(strings.TrimSpace(query), "?")}
	fields := strings.Fields(query)
	quoted := quotedFields(fields)
	fields, quoted, framed := dropFrames(fields, quoted)
	switch framed {
	case frameAction:
		// "can you close issue 212?" asks for the closing; "can you show
		// me…?" still reads, by its verb (asksToRead).
		r.question = false
	case frameQuestion:
		// "I want to know which invoices are overdue."
		r.question = true
	}
	if framed == frameNone && r.question && startsWithOrder(fields, quoted) {
		// "close issue 212?", "merge PR 5 now?": an instruction asked
		// with a question mark, not a question.
		r.question = false
	}
	fields, quoted = instructionFirst(fields, quoted)
	fields, quoted = causeFirst(fields, quoted)
	fields, quoted = guardFirst(fields, quoted)
	r.bound = asksForBound(fields)
	for fi, field := range fields {
		text := valueText(field)
		value := strings.ContainsAny(field, "0123456789") || quoted[fi]
		k := shapeKind(text)
		if len(r.words) == 1 && (k == shapeUser || objectPronouns[strings.ToLower(text)]) {
			r.person = true
		}
		if k != noShape {
			r.kinds = append(r.kinds, k)
		}
		p := idPrefix(text)
		if value && p != "" {
			r.ids = append(r.ids, p)
		}
		if value && p == "" && k == noShape && !quoted[fi] {
			r.untyped = true
		}
		if fi+1 < len(fields) && isName(text, valueText(fields[fi+1])) {
			value = true
		}
		if k != noShape && k != shapeURL && k != shapeVariable {
			// "#releases", "acme/api", "docs/setup.md",
			// "bob@example.com" name which channel, repository, file or
			// address, whose kind their form gives (see concepts);
			// their words ("acme", "api", "docs", "setup") would match
			// unrelated operations. The words of a URL and of a
			// variable's name stay: they often say what it is for or
			// holds ("…/hook", "NPM_TOKEN": a secret).
			value = true
		}
		for _, w := range words(field) {
			stem := ""
			if !stopWords[w] {
				stem = Stem(w)
			}
			r.words = append(r.words, w)
			r.stems = append(r.stems, stem)
			r.values = append(r.values, value)
		}
	}
	r.dropIdioms()
	r.dropGiveMe()
	r.readPhrases()
	r.makeIsSet()
	r.contents = asksForContents(r.words)
	r.count = asksForCount(r.words)
	r.period = asksForPeriod(r.words, r.values)
	return r
}

// idioms are the set phrases whose nouns are no object: "the email we
// have on file" is the stored one, not a file; "cancel it right away"
// says when. Their words are not searched.
var idioms = [][]string{
	{"on", "file"}, {"on", "record"}, {"right", "away"}, {"at", "the", "moment"},
	{"so", "far"}, {"for", "good"}, {"in", "the", "meantime"}, {"by", "mistake"},
}

// dropIdioms clears the stems of the words of r's idioms (see idioms).
func (r *request) dropIdioms() {
	for i := range r.words {
		for _, idiom := range idioms {
			if i+len(idiom) <= len(r.words) && slices.Equal(r.words[i:i+len(idiom)], idiom) && !slices.Contains(r.values[i:i+len(idiom)], true) {
				for j := range idiom {
					r.stems[i+j] = ""
				}
			}
		}
	}
}

// dropGiveMe clears the stem of "give" given to the one who asks: "give
// me a gitignore for Node" asks for the gitignore; giving to others
// ("give bob push access") grants, which "give" stands for otherwise.
func (r *request) dropGiveMe() {
	for i := 0; i+1 < len(r.words); i++ {
		if r.words[i] == "give" && selfObjects[r.words[i+1]] {
			r.stems[i] = ""
		}
	}
}

// asksForContents returns the term of what words ask is on or in
// something when they start so ("what's on…", "who is in…", "what are
// in…"), or "".
func asksForContents(ws []string) string {
	if len(ws) < 3 || !(ws[1] == "s" || ws[1] == "is" || ws[1] == "are") || !(ws[2] == "on" || ws[2] == "in") {
		return ""
	}
	return contentTerms[ws[0]]
}

// asksForCount says whether words ask how many of something there are:
// "how many…", "the number of…".
func asksForCount(ws []string) bool {
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "how" && ws[i+1] == "many" || ws[i] == "number" && ws[i+1] == "of" {
			return true
		}
	}
	return false
}

// startsWithOrder says whether a request starts with the verb of an
// action that changes something (not a read verb, not an auxiliary or a
// question word, not a plural): "close issue 212?".
func startsWithOrder(fields []string, quoted []bool) bool {
	w, _ := clauseStart(fields, quoted, [2]int{0, len(fields)})
	if w == "" || stopWords[w] || readWords[w] || strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		// A plural ("refunds for ch_1?") is the noun, not the verb.
		return false
	}
	if acts := actions[Stem(w)]; acts != nil {
		return !shareAny(acts, readActions)
	}
	return startsInstruction(w)
}

// makeIsSet reads "make" as setting, not creating, when its object is
// one that exists: "make acme/old-site private", "make priya an owner of
// the org", "make the Mastercard ending 4444 the default card". A
// definite object (the, this, our…, a value or a name) is there already;
// "make a new repo", "make me a coupon" create.
func (r *request) makeIsSet() {
	i := leadingActionAt(r.words, r.stems)
	if i < 0 || i+1 >= len(r.words) || r.words[i] != "make" {
		return
	}
	if next := r.words[i+1]; definite[next] || r.values[i+1] || !stopWords[next] && !createdObjects[next] {
		r.words[i], r.stems[i] = "set", Stem("set")
	}
}

var (
	// definite are the words that start an object that exists.
	definite = map[string]bool{"the": true, "this": true, "that": true, "these": true, "those": true,
		"our": true, "my": true, "his": true, "her": true, "their": true, "its": true, "your": true, "it": true, "them": true}
	// createdObjects start an object that "make" creates or an idiom:
	// "make sure", "make new …", "make copies".
	createdObjects = map[string]bool{"new": true, "sure": true, "copies": true, "copy": true, "another": true, "some": true}
)

// asksForBound says whether fields bound a quantity: a comparison
// before a number or an amount ("over $500", "more than 1000 stars", "at
// least 3", "under 10 minutes") or a number followed by a plus
// ("1000+"). "Over the last week" is a span of time, not a bound.
func asksForBound(fields []string) bool {
	for i, f := range fields {
		w := normWord(f)
		if strings.HasSuffix(strings.TrimRight(f, ",.;:!?)"), "+") && strings.ContainsAny(f, "0123456789") {
			return true
		}
		next := i + 1
		switch {
		case boundWords[w]:
		case comparatives[w] && next < len(fields) && normWord(fields[next]) == "than",
			w == "at" && next < len(fields) && (normWord(fields[next]) == "least" || normWord(fields[next]) == "most"):
			next++
		default:
			continue
		}
		if next < len(fields) && strings.ContainsAny(fields[next], "0123456789") {
			return true
		}
	}
	return false
}

var (
	// boundWords bound a quantity by themselves: "over $500".
	boundWords = map[string]bool{"over": true, "under": true, "above": true, "below": true,
		"exceeding": true, "upwards": true}
	// comparatives bound one before "than": "more than 1000".
	comparatives = map[string]bool{"more": true, "less": true, "fewer": true, "greater": true, "larger": true,
		"bigger": true, "smaller": true, "higher": true, "lower": true, "older": true, "newer": true}
)

// asksForPeriod says whether words ask about a span of time that has
// passed: "yesterday", "lately", "two days ago", a unit of time after
// this, last, past or previous ("this week", "the last four weeks",
// "last quarter's"), or since and a word that is no value ("since
// Monday"; "since v4.2" is since a release). "Next week" is to come, and
// "$99 a year" a rate.
func asksForPeriod(ws []string, values []bool) bool {
	for i, w := range ws {
		switch {
		case pastWords[w]:
			return true
		case w == "since" && i+1 < len(ws) && !values[i+1]:
			return true
		case timeUnits[w]:
			for j := max(0, i-3); j < i; j++ {
				if periodStarts[ws[j]] {
					return true
				}
			}
		}
	}
	return false
}

var (
	pastWords    = map[string]bool{"yesterday": true, "today": true, "tonight": true, "lately": true, "recently": true, "ago": true}
	periodStarts = map[string]bool{"this": true, "last": true, "past": true, "previous": true}
	timeUnits    = map[string]bool{"minute": true, "minutes": true, "hour": true, "hours": true, "day": true, "days": true,
		"week": true, "weeks": true, "month": true, "months": true, "quarter": true, "quarters": true, "year": true, "years": true}
)

// contentTerms are the terms of what is on or in something, by the
// question word that asks for it.
var contentTerms = map[string]string{"what": Stem("item"), "who": Stem("member")}

// readPhrases reads the phrasal verbs of r ("kick off", "get rid of"):
// each verb becomes the word it means, and its particles, which would
// read as words of their own ("off", "rid"), are left out.
func (r *request) readPhrases() {
	for i := 0; i < len(r.words); i++ {
		if r.values[i] {
			continue
		}
		word, at, n := matchPhrase(r.words, r.stems, r.values, i)
		if word == "" {
			continue
		}
		r.words[i], r.stems[i] = word, Stem(word)
		r.words = append(r.words[:at], r.words[at+n:]...)
		r.stems = append(r.stems[:at], r.stems[at+n:]...)
		r.values = append(r.values[:at], r.values[at+n:]...)
	}
}

// synonymTerms maps the stem of each word of the synonym table to the
// stems of its synonyms' words (stop words left out), so that a query
// looks them up instead of splitting and stemming them again.
var synonymTerms = func() map[string][]string {
	m := map[string][]string{}
	for stem, syns := range synonyms {
		seen := map[string]bool{}
		for _, syn := range syns {
			for _, sw := range words(syn) {
				if t := Stem(sw); !stopWords[sw] && !seen[t] {
					seen[t] = true
					m[stem] = append(m[stem], t)
				}
			}
		}
	}
	return m
}()

// peopleTerms are the stems of peopleWords.
var peopleTerms = func() []string {
	out := make([]string, len(peopleWords))
	for i, w := range peopleWords {
		out[i] = Stem(w)
	}
	return out
}()

// isName says whether text, followed in a request by next (both
// valueText), is the name of what next names: a hyphenated word before a noun of something that
// is named ("the brand-assets repo", "the mobile-app team"). Its words
// say which one, not what the request is about ("assets" would find
// release assets).
func isName(text, next string) bool {
	if !strings.Contains(strings.Trim(text, "-"), "-") {
		return false
	}
	return namedNouns[strings.TrimSuffix(strings.ToLower(strings.TrimSuffix(next, ".")), "'s")]
}

// valueText is a piece of a request without the punctuation around it
// ("(@jdoe),", "mandate_1Nx?"), as its form, an id's prefix or a name
// are read from it.
func valueText(field string) string {
	return strings.Trim(field, `"'()[]{}<>,;:!?`)
}

// namedNouns are the nouns of things that people name.
var namedNouns = map[string]bool{
	"repo": true, "repository": true, "team": true, "org": true, "organization": true, "branch": true,
	"project": true, "workspace": true, "channel": true, "app": true, "site": true, "account": true,
	"group": true, "folder": true, "bucket": true, "board": true, "store": true, "environment": true,
}

// quotedFields marks the fields of a request inside quotation marks
// ("post 'deploy finished' in #releases", "set my status to \"in a
// meeting\""): the text of a message, a status or a name, which says what
// to write, not which operation writes it. A quotation opens at a field
// that starts with a quotation mark and closes at the first field that
// ends with the same mark; one left open marks nothing.
func quotedFields(fields []string) []bool {
	out := make([]bool, len(fields))
	for i := 0; i < len(fields); i++ {
		f := strings.TrimLeft(fields[i], "([")
		if f == "" || !strings.ContainsRune(quoteMarks, rune(f[0])) {
			continue
		}
		mark := f[0]
		for j := i; j < len(fields); j++ {
			end := strings.TrimRight(fields[j], ".,;:!?)]")
			if len(end) > 0 && end[len(end)-1] == mark && (j > i || len(end) > 1) {
				for k := i; k <= j; k++ {
					out[k] = true
				}
				i = j
				break
			}
		}
	}
	return out
}

// quoteMarks are the quotation marks quotedFields reads.
const quoteMarks = "\"'"

// objectPronouns are the pronouns that stand for a person as a verb's
// object.
var objectPronouns = map[string]bool{"him": true, "her": true}

// readPerson marks the word after r's verb as a person's name when the
// index has no term for it and no synonym table knows it ("kick bob off
// the repo", "make priya an owner"): an API's own words are its terms,
// and what it never says, in that place, is most often who.
func (ix *Index) readPerson(r *request) {
	if r.person || len(r.words) < 2 || r.values[0] || r.values[1] || r.stems[0] == "" || readWords[r.words[0]] {
		return
	}
	stem := r.stems[1]
	// "stop selling the Starter plan": a verb's -ing form after a verb
	// is what it stops or starts, not who.
	if stem == "" || strings.HasSuffix(r.words[1], "ing") || ix.known(stem) {
		return
	}
	c := map[string]float64{}
	if ix.addVariants(stem, c); len(c) > 0 {
		return
	}
	r.person, r.values[1] = true, true
}

// readIDs reads the kinds of r's typed ids once for all that weighs
// them: the concepts, the items given and the item named.
func (ix *Index) readIDs(r *request) {
	r.idKinds = make([][][]string, len(r.ids))
	for i, p := range r.ids {
		r.idKinds[i] = ix.idKinds(p)
	}
}

// defaultBranches are the names people give a repository's default
// branch.
var defaultBranches = map[string]bool{"main": true, "master": true, "trunk": true, "develop": true}

// readBranch reads "main", "master", "trunk" and "develop" as a branch's
// name, not as words to search, in an index whose routes have branches
// ("protect main on acme/api", "what got committed to main this
// week?"); elsewhere "main" is as often a main account.
func (ix *Index) readBranch(r *request) {
	if !ix.hasBranches {
		return
	}
	for i, w := range r.words {
		if defaultBranches[w] && !r.values[i] {
			r.values[i] = true
			if !slices.Contains(r.kinds, shapeBranch) {
				r.kinds = append(r.kinds, shapeBranch)
			}
		}
	}
}

// instructionFirst moves the clause of a request that says what to do
// before the clauses that tell the story ("mallory left the company,
// take her out of the org"; "a customer filed a chargeback; send our
// shipping receipt as evidence"), so that the verb, its object and a
// person acted on are read where a request has them: first. It reorders
// fields (and quoted, which marks them) when the first clause does not
// start with a verb and a later one starts with a word that is no stop
// word, fillers ("just", "so", "please") aside. A later clause whose
// object is "it" or "them" ("…, archive it") is left in place: what it
// acts on is told before, where the nouns are read from.
func instructionFirst(fields []string, quoted []bool) ([]string, []bool) {
	var clauses [][2]int
	start := 0
	for i, f := range fields {
		if i == len(fields)-1 || endsClause(f) {
			clauses = append(clauses, [2]int{start, i + 1})
			start = i + 1
		}
	}
	if len(clauses) < 2 {
		return fields, quoted
	}
	if w, _ := clauseStart(fields, quoted, clauses[0]); w == "" || startsInstruction(w) {
		return fields, quoted
	}
	for _, c := range clauses[1:] {
		w, at := clauseStart(fields, quoted, c)
		if w == "" || stopWords[w] && !readWords[w] {
			continue
		}
		if at+1 < c[1] && referentPronouns[strings.ToLower(valueText(fields[at+1]))] {
			return fields, quoted
		}
		order := slices.Concat(fields[c[0]:c[1]], fields[:c[0]], fields[c[1]:])
		marks := slices.Concat(quoted[c[0]:c[1]], quoted[:c[0]], quoted[c[1]:])
		return order, marks
	}
	return fields, quoted
}

// endsClause says whether a field ends a clause: it ends with a comma,
// a semicolon, a colon or a sentence's end, before any closing quote.
func endsClause(field string) bool {
	t := strings.TrimRight(field, `"')]`)
	return t != "" && strings.ContainsRune(",;:.?!", rune(t[len(t)-1]))
}

// clauseStart is the first word of clause c of fields, fillers left out,
// and the index of its field; "" when the clause starts with a value.
func clauseStart(fields []string, quoted []bool, c [2]int) (string, int) {
	for i := c[0]; i < c[1]; i++ {
		if quoted[i] || strings.ContainsAny(fields[i], "0123456789") {
			return "", i
		}
		ws := words(fields[i])
		if len(ws) == 0 || clauseFillers[ws[0]] {
			continue
		}
		return ws[0], i
	}
	return "", c[1]
}

// startsInstruction says whether a clause that starts with w says what
// to do: w is the verb of an action, of a phrasal verb, or of reading.
func startsInstruction(w string) bool {
	stem := Stem(w)
	_, irregular := irregularVerbs[w]
	return actions[stem] != nil || phrases[verbKey(w, stem)] != nil || irregular || readWords[w]
}

// clauseFillers are the words a clause may start with before its verb.
var clauseFillers = map[string]bool{"please": true, "just": true, "now": true, "so": true, "then": true,
	"and": true, "also": true, "only": true, "but": true, "kindly": true}

// referentPronouns are the objects that refer to what an earlier clause
// told.
var referentPronouns = map[string]bool{"it": true, "them": true}

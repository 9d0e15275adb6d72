// Package search ranks a server's operations by what a person asks for:
// BM25F over a tool's name (split into words), title, description,
// toolset and argument names, with an English stemmer, a small table of
// the everyday words people use for API verbs and nouns, a thesaurus
// mined from the operations themselves when the index is built (the words
// their prose uses for what their names call something else), and the
// forms of a word that the stemmer leaves apart.
//
// It is standard-library only, as the rest of the runtime: a discovery
// server builds its Index once from its tool definitions and answers
// search_operations with it.
package search

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// Doc is one searchable operation.
type Doc struct {
	Name        string
	Title       string
	Description string
	Toolset     string
	// Params are the names of the operation's arguments.
	Params []string
	// ParamDocs are the descriptions of the operation's arguments: they
	// name what an operation can change or filter on ("the customer's
	// shipping address", "only runs of this branch"), which its title
	// rarely says.
	ParamDocs []string
	// ParamValues are, per argument that takes one of a few values, those
	// values: a listing's status filter (Stripe's "past_due",
	// "trialing") says what a request that names one ("which
	// subscriptions are past due?", "who is still on a free trial?")
	// asks for, which no description of the filter lists.
	ParamValues [][]string
	// Returns is the first paragraph of the description of what the
	// operation returns (ToolDef.SearchReturns, see ResultDescription):
	// what its object is, in the API's prose.
	Returns string
	// Keywords are more words about the operation that its definition
	// does not hold, found when the server was generated (ToolDef.
	// SearchKeywords: synonyms of the words of its name and title).
	Keywords string
	// Glossary is everyday words for the jargon of the operation's name
	// and route ("sites that send visitors" for referrers), found when the
	// server was generated (ToolDef.SearchGlossary).
	Glossary string
	// ReadOnly and Destructive are the tool's hints: they index the verbs a
	// person uses for what the operation does (show, list; delete,
	// remove; create, change), which names such as Stripe's
	// "PostCustomersCustomer" do not say.
	ReadOnly, Destructive bool
	// Route is the HTTP operation the tool calls, as "METHOD /path"
	// ("GET /repos/{owner}/{repo}/pulls"), or "" when it calls none: it
	// says which kind of object the operation acts on and how.
	Route string
}

// Result is one ranked operation: Doc is its index in the docs given to
// New.
type Result struct {
	Doc   int
	Score float64
}

// The fields of a document and their weights. A tool's name and title
// say what it does in few words and count most; the description's first
// paragraph says it again at more length; the first paragraph of what it
// returns says what its object is; the rest of the description and the
// argument names mention much that the operation is not about.
const (
	fieldName = iota
	fieldTitle
	fieldLead
	fieldBody
	fieldToolset
	fieldParams
	fieldParamDocs
	fieldKeywords
	fieldKind
	fieldReturns
	fieldGlossary
	numFields
)

var fieldWeight = [numFields]float64{
	fieldName:      3.0,
	fieldTitle:     3.0,
	fieldLead:      1.5,
	fieldBody:      0.4,
	fieldToolset:   1.5,
	fieldParams:    0.5,
	fieldParamDocs: 0.3,
	fieldKeywords:  0.25,
	fieldKind:      0.8,
	fieldReturns:   0.6,
	fieldGlossary:  0.5,
}

// fieldB is the length normalisation of each field: names and titles are
// all short, so their lengths say little.
var fieldB = [numFields]float64{
	fieldName:      0.3,
	fieldTitle:     0.3,
	fieldLead:      0.75,
	fieldBody:      0.75,
	fieldToolset:   0,
	fieldParams:    0.5,
	fieldParamDocs: 0.75,
	fieldKeywords:  0.5,
	fieldKind:      0,
	fieldReturns:   0.75,
	fieldGlossary:  0.75,
}

// k1 is BM25's term-frequency saturation.
const k1 = 1.2

// maxBodyWords bounds how much of a long description is indexed: past its
// first few sentences a description lists caveats and links.
const maxBodyWords = 120

// posting is a term's frequency in each of one document's fields. A
// byte holds it: BM25 saturates long before 255 (k1), and a posting then
// takes 16 bytes instead of 24; GitHub's index of 1,223 operations holds
// 2.05 MB instead of 2.81.
type posting struct {
	doc int32
	tf  [numFields]uint8
}

// Index is an immutable search index; it is safe for concurrent use.
type Index struct {
	postings map[string][]posting
	lengths  [][numFields]uint16
	avgLen   [numFields]float64
	n        int
	// readOnly says which documents only read, or only compute an answer
	// (see computes).
	readOnly []bool
	// acts are the action groups of the verb that starts each document's
	// headline ("Create a label": create).
	acts [][]string
	// subjects are what each document acts on and how, by its route.
	subjects []subject
	// thesaurus maps a term of the documents' prose to the terms of
	// their names and toolsets it stands for (see mineThesaurus).
	thesaurus map[string][]expansion
	// terms are the keys of postings in order (see addVariants).
	terms []string
	// collections are the kinds of object the routes give ids to, for
	// reading typed ids (see idKinds).
	collections []collection
	// hasBranches says whether the routes give ids to branches (see
	// readBranch).
	hasBranches bool
	// takesPeriod says which documents take an argument that limits
	// what they return to a span of time (see periodParams).
	takesPeriod []bool
	// forTests says which documents are for testing an integration
	// (routes under Stripe's /v1/test_helpers, a sandbox): see testsOnly.
	forTests []bool
	// spellings are the terms a misspelled word may stand for, by
	// length (see correct).
	spellings map[int][]string
}

// New indexes docs.
func New(docs []Doc) *Index {
	ix := &Index{postings: map[string][]posting{}, lengths: make([][numFields]uint16, len(docs)), n: len(docs),
		readOnly: make([]bool, len(docs)), acts: make([][]string, len(docs)), subjects: make([]subject, len(docs)),
		takesPeriod: make([]bool, len(docs)), forTests: make([]bool, len(docs))}
	var total [numFields]float64
	// The same words recur across operations: stem each once.
	st := stemmer{}
	// The prose and the API words of each document, for the thesaurus.
	prose := make([][]string, len(docs))
	apiTerms := make([][]string, len(docs))
	for i, d := range docs {
		ix.subjects[i] = docSubject(d)
		ix.readOnly[i] = d.ReadOnly || computes(ix.subjects[i])
		lead, body := splitLead(d.Description)
		returns, _ := splitLead(d.Returns) // a whole description from other callers
		ix.takesPeriod[i] = takesPeriod(d.Params)
		ix.forTests[i] = routeForTests(d.Route)
		fields := [numFields][]string{
			fieldName:      st.terms(d.Name),
			fieldTitle:     st.terms(d.Title),
			fieldLead:      st.terms(lead),
			fieldBody:      firstN(st.terms(body), maxBodyWords),
			fieldToolset:   st.terms(d.Toolset),
			fieldParams:    st.terms(strings.Join(d.Params, " ")),
			fieldParamDocs: append(st.paramDocTerms(d.ParamDocs), st.paramValueTerms(d.ParamValues)...),
			fieldKeywords:  st.terms(d.Keywords),
			fieldKind:      st.terms(kindWords(d, sendsMessage(ix.subjects[i]))),
			fieldReturns:   firstN(st.terms(returns), maxBodyWords),
			fieldGlossary:  st.terms(d.Glossary),
		}
		prose[i] = fields[fieldLead]
		apiTerms[i] = append(fields[fieldName][:len(fields[fieldName]):len(fields[fieldName])], fields[fieldToolset]...)
		ix.acts[i] = action(headline(d))
		counts := map[string]*posting{}
		for f, terms := range fields {
			ix.lengths[i][f] = uint16(min(len(terms), math.MaxUint16))
			total[f] += float64(len(terms))
			for _, t := range terms {
				p := counts[t]
				if p == nil {
					p = &posting{doc: int32(i)}
					counts[t] = p
				}
				if p.tf[f] < math.MaxUint8 {
					p.tf[f]++
				}
			}
		}
		for t, p := range counts {
			ix.postings[t] = append(ix.postings[t], *p)
		}
	}
	ix.thesaurus = mineThesaurus(prose, apiTerms)
	ix.collections = collections(docs)
	for _, c := range ix.collections {
		ix.hasBranches = ix.hasBranches || slices.Contains(shapeTerms[shapeBranch], Stem(c.words[len(c.words)-1]))
	}
	ix.terms = sortedTerms(ix.postings)
	ix.spellings = spellings(ix.terms)
	for f := range total {
		if len(docs) > 0 {
			ix.avgLen[f] = max(total[f]/float64(len(docs)), 1)
		}
	}
	return ix
}

// maxParamDocWords bounds how much of one argument's description is
// indexed: its first sentence says what the argument is.
const maxParamDocWords = 20

// paramDocTerms are the terms of the first sentence of each argument's
// description.
func (st stemmer) paramDocTerms(docs []string) []string {
	var out []string
	for _, d := range docs {
		for i, sentence := range strings.Split(strings.TrimSpace(d), ". ") {
			// The first sentence says what the argument is; a later one
			// that starts with a value says what that value selects
			// ("`2fa_disabled` means that only members without
			// two-factor authentication enabled will be returned").
			if i == 0 || strings.HasPrefix(sentence, "`") {
				out = append(out, firstN(st.terms(sentence), maxParamDocWords)...)
			}
		}
	}
	return out
}

// maxParamValues is the most values an argument may take for them to be
// indexed: a short list is a filter's choices; a long one (Stripe's 200
// event types, every currency) says little about any of them.
const maxParamValues = 16

// paramValueTerms are the terms of the values of each argument that
// takes at most maxParamValues of them.
func (st stemmer) paramValueTerms(values [][]string) []string {
	var out []string
	for _, vs := range values {
		if len(vs) <= maxParamValues {
			out = append(out, st.terms(strings.Join(vs, " "))...)
		}
	}
	return out
}

// kindWords are the verbs of what an operation does, by its hints, and
// send and post for one that creates what is sent (sendsMessage).
func kindWords(d Doc, sends bool) string {
	switch {
	case d.ReadOnly:
		return "get show view list read"
	case d.Destructive:
		return "delete remove"
	}
	if sends {
		return "create update change set send post"
	}
	return "create update change set"
}

// docSubject is what d acts on and how: by its route, or by its headline
// or name when it calls none.
func docSubject(d Doc) subject {
	if d.Route == "" {
		return headlineSubject(d)
	}
	return routeSubject(d.Route)
}

// sendsMessage says whether an operation of subject sub creates something
// that is sent: a message, an email, a notification ("create_message"
// sends one; people say send or post, not create).
func sendsMessage(sub subject) bool {
	return sentHeads[sub.head] && slices.Contains(sub.acts, "create")
}

// sentHeads are the stems of the things that are sent when created.
var sentHeads = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("message email mail sms mms notification announcement broadcast reply dm chat fax invitation invite") {
		m[Stem(w)] = true
	}
	return m
}()

func firstN(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// headline is what says in a few words what d does: its title, or the
// first paragraph of its description.
func headline(d Doc) string {
	if d.Title != "" {
		return d.Title
	}
	lead, _ := splitLead(d.Description)
	return lead
}

// splitLead splits a description into its first paragraph and the rest.
func splitLead(s string) (lead, rest string) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// Search returns up to limit documents ranked by their relevance to query,
// best first; keep, when not nil, says which documents may be returned.
//
// Each word of the query is one concept: the word itself (weight 1) or
// any of the words it commonly stands for (its synonyms, weight
// synonymWeight). A document scores, per concept, the best of its terms,
// so that a word with many synonyms counts once, not once per synonym;
// concepts add up as BM25F terms do.
func (ix *Index) Search(query string, limit int, keep func(doc int) bool) []Result {
	r := parseRequest(query)
	ix.correct(&r)
	ix.readPerson(&r)
	ix.readBranch(&r)
	ix.readIDs(&r)
	concepts := ix.concepts(r)
	scores := ix.score(concepts)
	// Intent: a question wants an operation that reads; a request that
	// starts with a verb wants an operation that does that ("create a
	// promotion code" wants the operation that creates one, not the ones
	// that delete or list discounts, which match as many words).
	reads := asksToRead(r)
	if reads {
		// "which…" and "who…" ask for the members of a set: a listing.
		list := asksForSet(r)
		for d := range scores {
			if ix.readOnly[d] {
				scores[d] *= readBoost
			}
			if list && (shareAny(listAction, ix.acts[d]) || r.bound && slices.Contains(ix.acts[d], "search")) {
				// With a bound, a search lists the set the question asks
				// for as well as a listing does.
				scores[d] *= listBoost
			}
		}
	} else if act := leadingAction(r.words, r.stems); act != nil {
		for d := range scores {
			if shareAny(act, ix.acts[d]) {
				scores[d] *= actionBoost
			}
		}
	} else if verb := leadingVerb(r); verb != "" {
		// "remind me at 5pm…", "stream the call's audio to…": a verb no
		// action group knows may name the thing its operation creates
		// (a reminder, a stream).
		for d := range scores {
			if s := ix.subjects[d]; s.head == verb && slices.Contains(s.acts, "create") {
				scores[d] *= actionBoost
			}
		}
	}
	testsAsked := asksToTest(r)
	res := make([]Result, 0, len(scores))
	for d, sc := range scores {
		if keep != nil && !keep(int(d)) {
			continue
		}
		// "what got committed to main this past week?": a listing that
		// can be limited to a span of time.
		if reads && r.period && ix.takesPeriod[d] {
			sc *= periodBoost
		}
		// "which card payments over $500 got declined?", "find Rust
		// libraries with 1000+ stars": a criterion listings seldom filter
		// on, which a search takes.
		if reads && r.bound && slices.Contains(ix.acts[d], "search") {
			sc *= boundBoost
		}
		// "charge cus_42 $25 on their saved card" is a real charge, not
		// a simulated card presented to a test reader.
		if !testsAsked && ix.forTests[d] {
			sc *= testsOnly
		}
		res = append(res, Result{Doc: int(d), Score: sc})
	}
	ix.boostSubjects(r, concepts, res)
	sortResults(res)
	ix.diversify(res, limit)
	if limit > 0 && len(res) > limit {
		res = res[:limit]
	}
	return res
}

// sortResults orders results best first, then by document.
func sortResults(res []Result) {
	sort.Slice(res, func(i, j int) bool {
		if res[i].Score != res[j].Score {
			return res[i].Score > res[j].Score
		}
		return res[i].Doc < res[j].Doc
	})
}

// score ranks the documents against concepts: BM25F per concept (the best
// of its terms), summed, times the share of concepts matched.
func (ix *Index) score(concepts []map[string]float64) map[int32]float64 {
	scores := map[int32]float64{}
	matched := map[int32]int{}
	for _, c := range concepts {
		best := map[int32]float64{}
		for term, w := range c {
			ix.termScores(term, w, best)
		}
		for d, sc := range best {
			scores[d] += sc
			matched[d]++
		}
	}
	// Coverage: an operation that matches more of what was asked for
	// ranks above one that matches a single word very well.
	for d := range scores {
		scores[d] *= math.Pow(float64(matched[d])/float64(len(concepts)), coverageExp)
	}
	return scores
}

// termScores raises best[d] to term's weighted BM25F score in each
// document d that holds it.
func (ix *Index) termScores(term string, w float64, best map[int32]float64) {
	ps := ix.postings[term]
	if len(ps) == 0 {
		return
	}
	idf := ix.idf(term)
	for _, p := range ps {
		var tf float64
		for f := range numFields {
			if p.tf[f] == 0 {
				continue
			}
			norm := 1 - fieldB[f] + fieldB[f]*float64(ix.lengths[p.doc][f])/ix.avgLen[f]
			tf += fieldWeight[f] * float64(p.tf[f]) / norm
		}
		if sc := w * idf * tf / (k1 + tf); sc > best[p.doc] {
			best[p.doc] = sc
		}
	}
}

// idf is term's inverse document frequency (BM25's, never negative).
func (ix *Index) idf(term string) float64 {
	df := float64(len(ix.postings[term]))
	return math.Log(1 + (float64(ix.n)-df+0.5)/(df+0.5))
}

// coverageExp is how much the fraction of the query's concepts an
// operation matches scales its score: by its square root, so that an
// operation matching two of four words keeps 71% of its score, not half,
// and a strong match of a request's main words is not buried under weak
// matches of all of them.
const coverageExp = 0.5

// computeHeads are the stems of what an operation computes without
// changing anything, though it is called with POST: a tax calculation,
// an estimate, a preview, rendered Markdown.
var computeHeads = map[string]bool{Stem("calculation"): true, Stem("estimate"): true, Stem("preview"): true, Stem("markdown"): true}

// computes says whether an operation of subject s only computes an
// answer: it creates one of computeHeads, or searches.
func computes(s subject) bool {
	return computeHeads[s.head] && slices.Contains(s.acts, "create") || slices.Contains(s.acts, "search")
}

// readBoost multiplies the score of an operation that only reads when
// the query asks a question or to see something: "who can get into our
// repo" wants the list of collaborators, not to add one.
const readBoost = 1.5

// listBoost multiplies the score of an operation that lists when a
// question asks which things or who.
const listBoost = 1.5

// boundBoost multiplies the score of an operation that searches when a
// question bounds a quantity.
const boundBoost = 1.5

// periodBoost multiplies the score of an operation that takes a span of
// time when a question asks about one.
const periodBoost = 1.25

// testsOnly multiplies the score of an operation for testing an
// integration when the request does not speak of testing.
const testsOnly = 0.8

// testWords are the stems of the words that speak of testing.
var testWords = map[string]bool{"test": true, "simul": true, "pretend": true, "fake": true, "sandbox": true, "mock": true}

// routeForTests says whether route is under a literal segment that says
// it is for testing ("/v1/test_helpers/…", "/sandbox/…").
func routeForTests(route string) bool {
	_, segs, _ := splitRoute(route)
	for _, seg := range segs {
		if isParam(seg) {
			continue
		}
		for _, w := range words(seg) {
			if testWords[Stem(w)] {
				return true
			}
		}
	}
	return false
}

// asksToTest says whether r speaks of testing.
func asksToTest(r request) bool {
	for _, t := range r.stems {
		if testWords[t] {
			return true
		}
	}
	return false
}

// periodParams are the words of the arguments that limit a listing to a
// span of time: GitHub's since and until, Stripe's and Twilio's created
// (DateCreated), Slack's oldest and latest.
var periodParams = map[string]bool{"since": true, "until": true, "created": true, "oldest": true, "latest": true}

// takesPeriod says whether an operation with arguments params takes a
// span of time.
func takesPeriod(params []string) bool {
	for _, p := range params {
		for _, w := range words(p) {
			if periodParams[w] {
				return true
			}
		}
	}
	return false
}

// actionBoost multiplies the score of an operation whose headline starts
// with the verb (or a word of its group) that a request starts with.
const actionBoost = 1.5

// readWords start or mark a request to see something rather than to
// change it.
var readWords = map[string]bool{
	"who": true, "what": true, "which": true, "how": true, "whose": true, "where": true, "when": true,
	"is": true, "are": true, "does": true, "did": true, "has": true, "was": true, "were": true,
	"show": true, "list": true, "see": true, "view": true, "get": true, "find": true, "look": true,
	"check": true, "tell": true, "give": false, "any": true, "anything": true, "whether": true,
}

// asksToRead says whether query asks to see something: it is a question
// (a question mark, or a question word or read verb first).
func asksToRead(r request) bool {
	if r.question {
		return true
	}
	for i, w := range r.words {
		if i > 1 {
			break
		}
		if w == "tell" && (i+1 >= len(r.words) || !selfObjects[r.words[i+1]]) {
			// "tell the bank the package was delivered" tells someone
			// else: a write. "Tell me…" reads.
			continue
		}
		if readWords[w] {
			return true
		}
	}
	return false
}

// selfObjects are the objects of "tell" that ask to be told.
var selfObjects = map[string]bool{"me": true, "us": true}

// synonymWeight is how much a synonym of a query word counts against the
// word itself.
const synonymWeight = 0.5

// concepts returns, per distinct word of the query (stop words left out),
// its stemmed term with weight 1 and its synonyms' terms with
// synonymWeight.
func (ix *Index) concepts(r request) []map[string]float64 {
	var out []map[string]float64
	if r.contents != "" {
		// "what's on my board?": the board's items, as a word of the
		// request.
		out = append(out, map[string]float64{r.contents: 1})
	}
	if r.count {
		// "how many stars…": a count, which an API may have an operation
		// for, as a word of the request said at half weight.
		out = append(out, map[string]float64{stemCount: synonymWeight})
	}
	seen := map[string]bool{}
	self := false
	verbAt := leadingActionAt(r.words, r.stems)
	for i, word := range r.words {
		if r.values[i] {
			continue
		}
		if selfWords[word] && !self {
			// "my repos", "who follows me": APIs say "the authenticated
			// user" (or account) for the caller.
			self = true
			out = append(out, map[string]float64{stemAuthenticated: synonymWeight, stemViewer: synonymWeight})
		}
		stem := r.stems[i]
		if stem == "" || seen[stem] {
			continue
		}
		seen[stem] = true
		c := map[string]float64{stem: 1}
		// A verb other than the one the request asks to do says what
		// its object is ("the images we published", "their saved
		// card", "open findings"): the other verbs of its action would
		// ask for operations that create or download. "New" says the
		// object is to be made.
		describes := actions[stem] != nil && i != verbAt && word != "new"
		for _, t := range synonymTerms[stem] {
			if describes && actions[t] != nil {
				continue
			}
			if c[t] < synonymWeight {
				c[t] = synonymWeight
			}
		}
		ix.addVariants(stem, c)
		for _, e := range ix.thesaurus[stem] {
			if w := thesaurusWeight * e.share; c[e.term] < w {
				c[e.term] = w
			}
		}
		out = append(out, c)
	}
	kinds := r.kinds
	if r.person && !slices.Contains(kinds, shapeUser) {
		kinds = append(kinds[:len(kinds):len(kinds)], shapeUser)
	}
	// A value's form suggests its kind ("@jdoe": a user).
	for _, kind := range kinds {
		c := map[string]float64{}
		named := false
		for _, t := range shapeTerms[kind] {
			named = named || seen[t]
			if len(ix.postings[t]) > 0 {
				c[t] = shapeWeight
			}
		}
		// "the 0.9.1 release" names its kind already.
		if len(c) > 0 && !named {
			for t := range c {
				seen[t] = true
			}
			out = append(out, c)
		}
	}
	// A typed id ("seti_123") names its kind of object as the word would.
	for _, kinds := range r.idKinds {
		for _, kind := range kinds {
			for _, t := range kind {
				if !seen[t] {
					seen[t] = true
					out = append(out, map[string]float64{t: idWeight / float64(len(kinds))})
				}
			}
		}
	}
	return out
}

// The terms APIs use for the caller, and for a count.
var (
	stemCount         = Stem("count")
	stemAuthenticated = Stem("authenticated")
	stemViewer        = Stem("viewer")
)

// stemmer stems words through a cache; a nil stemmer caches nothing.
type stemmer map[string]string

// terms is Terms with st's cache.
func (st stemmer) terms(s string) []string {
	ws := words(s)
	out := ws[:0]
	for _, w := range ws {
		if stopWords[w] {
			continue
		}
		t, ok := st[w]
		if !ok {
			t = Stem(w)
			if st != nil {
				st[w] = t
			}
		}
		out = append(out, t)
	}
	return out
}

// Terms returns the indexed terms of a text: its words, identifiers split
// at case changes, digits and punctuation, lowercased and stemmed, without
// stop words.
func Terms(s string) []string {
	return stemmer(nil).terms(s)
}

// words splits s into lowercase words: at every character that is not a
// letter or digit, and inside identifiers at lower-to-upper case changes
// ("listRepoIssues" → list repo issues, "HTMLURL" stays one word).
func words(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if start < 0 {
				start = i
			}
		case c >= 'A' && c <= 'Z':
			if start >= 0 && i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z') {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		case c >= 0x80:
			// Non-ASCII letters stay inside words; they are rare in API
			// descriptions and never stemmed.
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

// selfWords are how a person names themselves, which APIs call the
// authenticated user.
var selfWords = map[string]bool{"me": true, "my": true, "mine": true, "myself": true, "i": true}

// stopWords carry no meaning for ranking: function words, and the words
// every operation's text has ("the", "a", "of"…), question words, which
// say how a person asks, not what for, and the adverbs a person adds to
// say when or how surely ("right now", "actually", "yet"), which an
// operation's text uses for other things ("Now you can…"), and what is
// left of a contraction once its apostrophe splits it ("don't": don, t).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or of to in on for with by from at as is are was were be been
		this that these those it its it's i me my we our us you your he she they them their his her
		can could would should will shall may might must do does did done have has had
		please want need just also some any all about into out up over than then there here
		what which who whom whose when where why how not no so if but very too
		one s t now actually exactly lately really already still yet ever currently anymore somehow maybe perhaps quite basically
		don doesn didn isn aren wasn weren wouldn couldn shouldn haven hasn hadn ll ve`) {
		m[w] = true
	}
	return m
}()

// leadingVerb returns the stem of a request's first word when it may be a
// command's verb: not a stop word, a value or a word that asks to read;
// "" otherwise.
func leadingVerb(r request) string {
	if len(r.words) == 0 || r.values[0] || r.stems[0] == "" || readWords[r.words[0]] {
		return ""
	}
	return r.stems[0]
}

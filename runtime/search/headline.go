package search

import "strings"

// headlineSubject reads the subject of a tool that calls no route from
// its headline, as a hand-written server's tools are described: the
// action of its first verb, the resource the last word of the noun
// phrase after it (up to a preposition, a clause or the sentence's end),
// the word before that the resource it belongs to. "List repository
// collaborators": collaborators, listed, of a repository; "Creates a new
// customer object.": a customer, created; "Returns a list of your
// invoices" and "Retrieves the details of an invoice": invoices, listed,
// and an invoice, got. When the headline starts with no verb, or there
// is none, the tool's name is read the same way ("get_order_status");
// else the tool has no subject.
func headlineSubject(d Doc) subject {
	if s := phraseSubject(words(firstClause(stripTags(headline(d))))); s.head != "" {
		return s
	}
	// "get_order_status", Twilio's "FetchCallNotification" (which has
	// no summary): a name that starts with a verb says it too.
	ws := words(d.Name)
	if len(ws) > 0 && httpMethodWords[ws[0]] {
		// Stripe's "PostCustomersCustomer": the method, which updates
		// as often as it creates.
		return subject{}
	}
	return phraseSubject(ws)
}

// httpMethodWords are the HTTP methods that names generated from routes
// start with and that say no one action.
var httpMethodWords = map[string]bool{"post": true, "put": true, "patch": true}

// phraseSubject is the subject that ws, the words of a headline or a
// name, say (see headlineSubject).
func phraseSubject(ws []string) subject {
	verb := -1
	var acts []string
	for i, n := 0, 0; i < len(ws) && n < maxActionWords; i++ {
		if stopWords[ws[i]] {
			continue
		}
		if ws[i] == "returns" {
			// "Returns a list of…", "Returns the balance…": what an
			// operation reads, not a refund.
			verb, acts = i, readActions[:1]
			break
		}
		if a := actions[Stem(ws[i])]; a != nil {
			verb, acts = i, a
			break
		}
		n++
	}
	if verb < 0 {
		return subject{}
	}
	var phrase []string
	for j := verb + 1; j < len(ws); j++ {
		w := ws[j]
		switch {
		case len(phrase) == 0 && (w == "or" || w == "and") && j+1 < len(ws) && actions[Stem(ws[j+1])] != nil:
			// "Create or update a file": the object has not started.
			j++
		case w == "of" && len(phrase) > 0 && containerWords[phrase[len(phrase)-1]]:
			// "the details of an invoice": the invoice.
			if phrase[len(phrase)-1] == "list" {
				acts = listAction
			}
			phrase = phrase[:0]
		case boundaryWords[w] || phraseEnds[w]:
			j = len(ws)
		case !stopWords[w] && !headlineFillers[w] && !strings.HasSuffix(w, "ly") && strings.Trim(w, "0123456789") != "":
			phrase = append(phrase, w)
		}
	}
	for len(phrase) > 0 && genericNouns[phrase[len(phrase)-1]] {
		phrase = phrase[:len(phrase)-1]
	}
	if len(phrase) == 0 {
		return subject{}
	}
	sub := subject{head: Stem(phrase[len(phrase)-1]), acts: acts}
	if len(phrase) > 1 {
		sub.parent = Stem(phrase[len(phrase)-2])
	}
	return sub
}

// headlineFillers are the words of a headline's noun phrase that say
// which one, not what: "an existing customer", "the specified refund".
var headlineFillers = map[string]bool{
	"existing": true, "specified": true, "given": true, "new": true, "single": true, "current": true,
	"specific": true, "particular": true, "unique": true, "previously": true, "most": true, "recent": true,
}

// phraseEnds end a headline's noun phrase, besides boundaryWords.
var phraseEnds = map[string]bool{"and": true, "or": true, "via": true, "using": true, "which": true, "who": true, "whose": true, "than": true}

// firstClause is text up to its first clause's end: a full stop, a comma,
// a colon or a semicolon followed by a space, or a line's end.
func firstClause(text string) string {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', ',', ';', ':':
			if i+1 == len(text) || text[i+1] == ' ' {
				return text[:i]
			}
		case '\n':
			return text[:i]
		}
	}
	return text
}

// stripTags removes the HTML tags of text ("<p>Retrieves a
// <code>Card</code>.</p>"), which would read as words.
func stripTags(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	var b strings.Builder
	in := false
	for _, r := range text {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// containerWords are the nouns of a headline that hold what it is about
// ("a list of customers", "the details of a run").
var containerWords = map[string]bool{
	"list": true, "details": true, "detail": true, "information": true, "info": true, "set": true,
	"collection": true, "array": true, "page": true, "summary": true,
}

// genericNouns end a headline's noun phrase without naming what it is
// about ("a new customer object").
var genericNouns = map[string]bool{"object": true, "objects": true, "resource": true, "resources": true, "record": true, "records": true, "entity": true}

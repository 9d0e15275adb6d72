package spec

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// Surface is what a generated server serves when whoever starts it does
// not choose (the surface: section of the config):
//
//	surface:
//	  defaultToolsets: [repos, issues, pulls, users]
//	  outputSchemas: false
//	  fieldSelection: true
//	  glossary:
//	    rma: [return authorization, send an item back]
//
// Large APIs need both: a default selection of toolsets that fits a
// model's context, and definitions without output schemas, which are
// optional in MCP and often most of a wrapped operation's definition.
type Surface struct {
	// DefaultToolsets are the toolsets served when the server is started
	// without --toolsets (runtime.Options.DefaultToolsets); empty serves
	// every toolset. Each names a toolset of some tool.
	DefaultToolsets []string
	// OmitOutputSchemas lists tools without their outputSchema
	// (runtime.Options.OmitOutputSchemas).
	OmitOutputSchemas bool
	// FieldSelection lets callers ask for only some fields of a result
	// (runtime.Options.FieldSelection).
	FieldSelection bool
	// Glossary gives everyday words for the API's own jargon: discovery
	// mode's operation search finds a tool whose name, title or upstream
	// path uses a term by the term's phrases too. It adds to the built-in
	// glossary of common API jargon (generator/searchterms), and replaces
	// its entry for a term both have.
	Glossary []GlossaryTerm
	// Pos is where the section is, for diagnostics about it.
	Pos Pos
}

// A GlossaryTerm is one entry of Surface.Glossary.
type GlossaryTerm struct {
	// Term is up to MaxGlossaryTermWords words, as a tool's name or path
	// spells them ("rma", "return merchandise", "billing_portal").
	Term string
	// Phrases are the words a person would use for it.
	Phrases []string
	// Pos is where the term is, for diagnostics about it.
	Pos Pos
}

// MaxGlossaryTermWords is the longest glossary term, in words: the search
// reads runs of up to this many words of a tool's name and path as terms.
const MaxGlossaryTermWords = 3

// glossary reads the glossary: mapping of the surface: section, each term
// to a list of phrases, reporting every malformed entry.
func (l *loader) glossary(n *yaml.Node, ctx string) []GlossaryTerm {
	ps, ok := l.mapping(n, ctx)
	if !ok {
		return nil
	}
	var out []GlossaryTerm
	for _, p := range ps {
		term := strings.TrimSpace(p.key.Value)
		if n := len(strings.FieldsFunc(term, notWordRune)); n == 0 || n > MaxGlossaryTermWords {
			l.errorf(p.key, ctx, "term %q: want 1 to %d words, got %d", p.key.Value, MaxGlossaryTermWords, n)
			continue
		}
		phrases, ok := l.strs(p.val, ctx+": "+term)
		if !ok {
			continue
		}
		phrases = slices.DeleteFunc(phrases, func(s string) bool { return strings.TrimSpace(s) == "" })
		if len(phrases) == 0 {
			l.errorf(p.val, ctx, "term %q: no phrases (list the words a person would use for it)", term)
			continue
		}
		out = append(out, GlossaryTerm{Term: term, Phrases: phrases, Pos: l.pos(p.key)})
	}
	return out
}

// notWordRune reports whether r separates the words of a glossary term
// (spaces, underscores, hyphens, slashes).
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// unknownToolsets checks names against the toolsets of the API's tools:
// it returns a message naming the unknown ones and listing the known
// toolsets, or "" when every name is known.
func unknownToolsets(api *API, names []string) string {
	var known, unknown []string
	for _, t := range api.Tools {
		if !slices.Contains(known, t.Toolset) {
			known = append(known, t.Toolset)
		}
	}
	for _, n := range names {
		if !slices.Contains(known, n) && !slices.Contains(unknown, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	slices.Sort(known)
	return fmt.Sprintf("defaultToolsets: unknown toolset %s; the toolsets are %s",
		quoteNames(unknown), quoteNames(known))
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

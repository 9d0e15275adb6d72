package spec

import (
	"fmt"
	"slices"
	"strings"
)

// Surface is what a generated server serves when whoever starts it does
// not choose (the surface: section of the config):
//
//	surface:
//	  defaultToolsets: [repos, issues, pulls, users]
//	  outputSchemas: false
//	  fieldSelection: true
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
	// Pos is where the section is, for diagnostics about it.
	Pos Pos
}

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

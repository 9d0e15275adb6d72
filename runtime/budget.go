package runtime

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// Result budgets (Options.ResultBudgetTokens): a list operation can
// answer megabytes, which a model's context cannot hold. A tool result
// over the budget is cut so that it stays valid against the tool's output
// schema: a structured array, or the largest array member of a structured
// object, keeps the whole leading elements that fit (a prefix is valid
// unless the schema has minItems); a result without structured content
// keeps the leading text that fits. A text block then says what was left
// out and how to get the rest (the tool's pagination arguments, when its
// input has any), and _meta["io.mcpgen/truncated"] says the same for
// programs.

// metaTruncated is the _meta key of a cut result.
const metaTruncated = "io.mcpgen/truncated"

// paginationArgs are the argument names that fetch further pages, as
// common REST APIs spell them.
var paginationArgs = []string{"page", "per_page", "cursor", "starting_after", "ending_before",
	"after", "before", "limit", "offset", "page_token", "pageToken", "next", "next_cursor"}

// truncation describes how a result was cut.
type truncation struct {
	field        string // the cut array's member name; "" for the root or text
	kept, total  int    // elements kept and there were (0 for text)
	omittedBytes int
	pagination   []string
}

// budgetBytes is the budget in bytes (tokens are estimated at 4 bytes),
// or 0 when results are not cut.
func (s *Server) budgetBytes() int {
	if s.opts.ResultBudgetTokens <= 0 {
		return 0
	}
	return s.opts.ResultBudgetTokens * 4
}

// cutStructured cuts structured JSON to limit bytes, or returns ok false
// when it cannot without breaking its shape (no array to shorten).
func cutStructured(structured []byte, limit int) (out []byte, t truncation, ok bool) {
	switch structured[0] {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(structured, &items) != nil {
			return nil, t, false
		}
		kept, b := prefixArray(items, limit-2)
		return b, truncation{kept: kept, total: len(items), omittedBytes: len(structured) - len(b)}, true
	case '{':
		var members map[string]json.RawMessage
		if json.Unmarshal(structured, &members) != nil {
			return nil, t, false
		}
		field, size := "", 0
		for k, v := range members {
			if len(v) > 0 && v[0] == '[' && (len(v) > size || len(v) == size && k < field) {
				field, size = k, len(v)
			}
		}
		if field == "" {
			return nil, t, false
		}
		var items []json.RawMessage
		if json.Unmarshal(members[field], &items) != nil {
			return nil, t, false
		}
		rest := len(structured) - size
		kept, arr := prefixArray(items, limit-rest)
		members[field] = arr
		b, err := json.Marshal(members)
		if err != nil {
			return nil, t, false
		}
		return b, truncation{field: field, kept: kept, total: len(items), omittedBytes: len(structured) - len(b)}, true
	}
	return nil, t, false
}

// prefixArray encodes the longest prefix of items that fits in limit
// bytes (at least the empty array).
func prefixArray(items []json.RawMessage, limit int) (int, []byte) {
	b := []byte{'['}
	n := 0
	for _, it := range items {
		if len(b)+len(it)+2 > limit {
			break
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
		n++
	}
	return n, append(b, ']')
}

// cutText keeps the leading text of the content blocks that fits in
// limit bytes, cutting at a character boundary; the blocks after are
// dropped.
func cutText(content []Content, limit int) ([]Content, truncation, bool) {
	total := 0
	for i := range content {
		total += len(content[i].Text) + len(content[i].Data)
	}
	if total <= limit {
		return content, truncation{}, false
	}
	out := make([]Content, 0, len(content))
	left := limit
	for _, c := range content {
		if c.Type != "text" || left <= 0 {
			break
		}
		if len(c.Text) > left {
			cut := left
			for cut > 0 && !utf8.RuneStart(c.Text[cut]) {
				cut--
			}
			c.Text = c.Text[:cut]
		}
		left -= len(c.Text)
		out = append(out, c)
	}
	kept := limit - left
	return out, truncation{omittedBytes: total - kept}, true
}

// paginationOf returns the pagination arguments of a tool's input schema.
func paginationOf(def string) []string {
	var d struct {
		InputSchema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"inputSchema"`
	}
	_ = json.Unmarshal([]byte(def), &d)
	var out []string
	for _, name := range paginationArgs {
		if _, ok := d.InputSchema.Properties[name]; ok {
			out = append(out, name)
		}
	}
	return out
}

// applyBudget cuts a result over limit bytes in place: structured (and
// the text blocks beside it), else the text blocks; a marker block is
// appended. ok is false when the result fits or cannot be cut.
func (s *Server) applyBudget(tool *ToolDef, res *ToolResult, structured *[]byte, limit int) (truncation, bool) {
	var t truncation
	if st := *structured; st != nil {
		if len(st) <= limit {
			return t, false
		}
		out, cut, ok := cutStructured(st, limit)
		if !ok {
			return t, false
		}
		*structured, t = out, cut
		if len(res.Content) == 0 {
			// The text copy clients without structured support read.
			res.Content = []Content{{Type: "text", Text: string(out)}}
		} else {
			res.Content, _, _ = cutText(res.Content, limit)
		}
	} else {
		var ok bool
		if res.Content, t, ok = cutText(res.Content, limit); !ok {
			return t, false
		}
	}
	t.pagination = paginationOf(tool.Definition)
	res.Content = append(slices.Clip(res.Content), Content{Type: "text", Text: t.marker(s.opts.ResultBudgetTokens)})
	return t, true
}

// marker is the text block that says what was cut.
func (t truncation) marker(budgetTokens int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[The result was cut to fit a budget of %d tokens: ", budgetTokens)
	switch {
	case t.total > 0 && t.field != "":
		fmt.Fprintf(&b, "%d of the %d items of %q are here, ", t.kept, t.total, t.field)
	case t.total > 0:
		fmt.Fprintf(&b, "%d of the %d items are here, ", t.kept, t.total)
	}
	fmt.Fprintf(&b, "%d bytes were left out.", t.omittedBytes)
	if len(t.pagination) > 0 {
		fmt.Fprintf(&b, " Ask for less at a time, or for the next part, with the arguments %s.", strings.Join(t.pagination, ", "))
	} else {
		b.WriteString(" Ask for less, with narrower arguments.")
	}
	b.WriteByte(']')
	return b.String()
}

// meta is the _meta member of a cut result.
func (t truncation) meta() []byte {
	b := append([]byte(`"`+metaTruncated+`":{"omittedBytes":`), fmt.Sprint(t.omittedBytes)...)
	if t.total > 0 {
		b = append(b, `,"keptItems":`...)
		b = append(b, fmt.Sprint(t.kept)...)
		b = append(b, `,"omittedItems":`...)
		b = append(b, fmt.Sprint(t.total-t.kept)...)
	}
	if t.field != "" {
		b = append(b, `,"field":`...)
		b = wire.AppendString(b, t.field)
	}
	if len(t.pagination) > 0 {
		b = append(b, `,"pagination":`...)
		b = appendStringList(b, t.pagination)
	}
	return append(b, '}')
}

package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen-dev/mcpgen/runtime/search"
	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)

// Discovery mode (Options.Discovery) serves a large API through three
// meta-tools instead of one tool per operation, so that tools/list stays a
// few hundred tokens whatever the API's size:
//
//   - search_operations {query, toolset?, limit?}: operations ranked by
//     what the model asks for (runtime/search), each with its name,
//     summary, toolset and read-only flag, and the input schemas of the
//     first few, so that a call rarely needs another round trip;
//   - describe_operation {name}: an operation's full tool definition;
//   - call_operation {name, arguments}: runs the operation exactly as
//     tools/call of it would (the same generated validation, results,
//     errors and input requests).
//
// Nothing depends on notifications/tools/list_changed, which many hosts
// ignore: the list never changes. What the meta-tools reach is what the
// server serves: the selected toolsets, read-only mode, and over HTTP the
// caller's scopes. The meta-tools' annotations are the least permissive
// of what they reach.

// The meta-tools.
const (
	toolSearchOperations  = "search_operations"
	toolDescribeOperation = "describe_operation"
	toolCallOperation     = "call_operation"
)

func isMetaTool(name string) bool {
	return name == toolSearchOperations || name == toolDescribeOperation || name == toolCallOperation
}

// Search results: how many by default and at most, how many carry their
// input schema, and the budget of those schemas (bytes; about 6k tokens).
const (
	defaultSearchLimit = 10
	maxSearchLimit     = 50
	searchSchemaCount  = 3
	searchSchemaBudget = 24 << 10
)

// discoveryIndex is the search index over the registered tools, built on
// the first search and again when tools have been added since.
type discoveryIndex struct {
	mu    sync.Mutex
	n     int
	index *search.Index
	docs  []searchDoc
}

// searchDoc is what search results show of a tool.
type searchDoc struct {
	title       string
	summary     string
	inputSchema json.RawMessage
}

// searchIndex returns the index over the first n registered tools, with
// n the number registered now.
func (s *Server) searchIndex() (*search.Index, []searchDoc) {
	d := &s.discovery
	d.mu.Lock()
	defer d.mu.Unlock()
	s.mu.RLock()
	tools := s.tools[:len(s.tools):len(s.tools)]
	flags := s.flags[:len(tools):len(tools)]
	s.mu.RUnlock()
	if d.index != nil && d.n == len(tools) {
		return d.index, d.docs
	}
	docs := make([]search.Doc, len(tools))
	shown := make([]searchDoc, len(tools))
	for i, t := range tools {
		var def struct {
			Title       string          `json:"title"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		_ = json.Unmarshal([]byte(t.Definition), &def) // AddTool checked it is JSON
		doc := search.Doc{Name: t.Name, Title: def.Title, Description: def.Description, Toolset: t.Toolset,
			Keywords: t.SearchKeywords, Glossary: t.SearchGlossary, Route: t.SearchRoute, ReadOnly: flags[i].readOnly, Destructive: flags[i].destructive,
			Returns: t.SearchReturns}
		doc.Params, doc.ParamDocs, doc.ParamValues = search.InputArguments(def.InputSchema)
		docs[i] = doc
		shown[i] = searchDoc{title: def.Title, summary: summaryOf(def.Title, def.Description), inputSchema: def.InputSchema}
	}
	d.index, d.docs, d.n = search.New(docs), shown, len(tools)
	return d.index, d.docs
}

// summaryOf is the one-line summary of a tool: its title, else the first
// sentence of its description, at most 160 bytes.
func summaryOf(title, description string) string {
	s := title
	if s == "" {
		s = strings.TrimSpace(description)
		if i := strings.IndexAny(s, "\n"); i >= 0 {
			s = s[:i]
		}
		if i := strings.Index(s, ". "); i >= 0 {
			s = s[:i+1]
		}
	}
	if len(s) > 160 {
		cut := 157
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// reachable reports, for the tool at index i, whether the meta-tools
// reach it for the caller of ctx: served (toolsets, read-only) and, where
// the transport enforces scopes (HTTP with authorization), within the
// caller's. s.mu must be
// held.
func (s *Server) reachable(ctx context.Context, i int) bool {
	t := s.tools[i]
	if !s.toolServed(t, s.flags[i]) {
		return false
	}
	if scopes, ok := callerScopes(ctx); ok && !hasScopes(scopes, t.Scopes) {
		return false
	}
	return true
}

// metaDefinitions are the three meta-tool definitions. call_operation's
// annotations are the least permissive of the tools it reaches: read-only
// only when all are, destructive when any may be, idempotent only when
// all are, open-world when any is.
func (s *Server) metaDefinitions(allow func(*ToolDef) bool) []string {
	agg := toolFlags{readOnly: true, idempotent: true}
	s.mu.RLock()
	for i, t := range s.tools {
		if !s.toolServed(t, s.flags[i]) || (allow != nil && !allow(t)) {
			continue
		}
		f := s.flags[i]
		agg.readOnly = agg.readOnly && f.readOnly
		agg.idempotent = agg.idempotent && f.idempotent
		agg.destructive = agg.destructive || f.destructive
		agg.openWorld = agg.openWorld || f.openWorld
	}
	s.mu.RUnlock()
	return metaDefinitionsWith(agg, &s.opts)
}

// metaDefinitionsWith builds the meta-tool definitions of a server with
// opts: describe_operation takes fields when it offers field selection.
func metaDefinitionsWith(agg toolFlags, opts *Options) []string {
	defs := metaDefinitionsFor(agg)
	if opts.FieldSelection {
		defs[1] = describeWithFields(defs[1])
	}
	return defs
}

// DiscoveryToolDefinitions returns the definitions tools/list sends in
// discovery mode (Options.Discovery) when call_operation reaches writes
// that may be destructive: the longest they get. mcpgen stats measures
// them (ListedDiscoveryDefinitions for a server with options).
func DiscoveryToolDefinitions() []string {
	return ListedDiscoveryDefinitions(Options{})
}

// ListedDiscoveryDefinitions is DiscoveryToolDefinitions for a server
// started with opts (Options.FieldSelection adds describe_operation's
// fields argument).
func ListedDiscoveryDefinitions(opts Options) []string {
	return metaDefinitionsWith(toolFlags{destructive: true, openWorld: true}, &opts)
}

// metaDefinitionsFor builds the meta-tool definitions, call_operation's
// with the annotations agg.
func metaDefinitionsFor(agg toolFlags) []string {
	lookup := toolFlags{readOnly: true, idempotent: true}
	return []string{
		metaDefinition(toolSearchOperations,
			"Find the operations of this server that do what you want: describe the task in your own words. "+
				"Returns the best matches, best first, with the input schemas of the first few; run one with call_operation.",
			`{"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"What you want done, in plain words."},`+
				`"toolset":{"type":"string","description":"Only operations of this toolset."},`+
				`"limit":{"type":"integer","minimum":1,"maximum":`+strconv.Itoa(maxSearchLimit)+`,"description":"How many results (default `+strconv.Itoa(defaultSearchLimit)+`)."}},`+
				`"required":["query"],"additionalProperties":false}`, lookup),
		metaDefinition(toolDescribeOperation,
			"The full definition of an operation: description, input and output schemas, annotations.",
			`{"type":"object","properties":{"name":{"type":"string","description":"The operation's name, as search_operations returns it."}},"required":["name"],"additionalProperties":false}`, lookup),
		metaDefinition(toolCallOperation,
			"Run an operation by name. arguments must match the operation's input schema; the result is the operation's own.",
			`{"type":"object","properties":{"name":{"type":"string","description":"The operation's name."},`+
				`"arguments":{"type":"object","description":"The operation's arguments."}},"required":["name"],"additionalProperties":false}`, agg),
	}
}

func metaDefinition(name, description, inputSchema string, f toolFlags) string {
	b := append(make([]byte, 0, 512), `{"name":`...)
	b = wire.AppendString(b, name)
	b = append(b, `,"description":`...)
	b = wire.AppendString(b, description)
	b = append(b, `,"inputSchema":`...)
	b = append(b, inputSchema...)
	b = append(b, `,"annotations":{"readOnlyHint":`...)
	b = wire.AppendBool(b, f.readOnly)
	b = append(b, `,"destructiveHint":`...)
	b = wire.AppendBool(b, f.destructive)
	b = append(b, `,"idempotentHint":`...)
	b = wire.AppendBool(b, f.idempotent)
	b = append(b, `,"openWorldHint":`...)
	b = wire.AppendBool(b, f.openWorld)
	b = append(b, "}}"...)
	return string(b)
}

// metaCall runs a meta-tool. Mistakes in its arguments are tool errors,
// reported to the model, as a generated tool's validation errors are.
func (s *Server) metaCall(ctx context.Context, rs *reqState, name string, args []byte) response {
	switch name {
	case toolSearchOperations:
		var in struct {
			Query   *string `json:"query"`
			Toolset string  `json:"toolset"`
			Limit   *int    `json:"limit"`
		}
		if msg := decodeMetaArgs(args, &in); msg != "" {
			return response{result: s.toolErrorResult(name + ": " + msg), isError: true}
		}
		limit := defaultSearchLimit
		if in.Limit != nil {
			limit = *in.Limit
		}
		switch {
		case in.Query == nil || strings.TrimSpace(*in.Query) == "":
			return response{result: s.toolErrorResult(name + ": /query: required, a non-empty string"), isError: true}
		case limit < 1 || limit > maxSearchLimit:
			return response{result: s.toolErrorResult(fmt.Sprintf("%s: /limit: must be between 1 and %d", name, maxSearchLimit)), isError: true}
		}
		return s.searchOperations(ctx, *in.Query, in.Toolset, limit)
	case toolDescribeOperation:
		var in struct {
			Name   *string         `json:"name"`
			Fields json.RawMessage `json:"fields"`
		}
		if msg := decodeMetaArgs(args, &in); msg != "" {
			return response{result: s.toolErrorResult(name + ": " + msg), isError: true}
		}
		if in.Name == nil {
			return response{result: s.toolErrorResult(name + ": /name: required"), isError: true}
		}
		tool, msg := s.reachableTool(ctx, *in.Name)
		if tool == nil {
			return response{result: s.toolErrorResult(msg), isError: true}
		}
		def := tool.Definition
		if in.Fields != nil {
			if def, msg = describeSelection(tool, in.Fields); msg != "" {
				return response{result: s.toolErrorResult(name + ": " + msg), isError: true}
			}
		}
		b := append(make([]byte, 0, len(def)+64), `{"toolset":`...)
		b = wire.AppendString(b, tool.Toolset)
		b = append(b, `,"tool":`...)
		b = append(b, def...)
		b = append(b, '}')
		return s.structuredResult(b)
	default: // call_operation
		var in struct {
			Name      *string         `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if msg := decodeMetaArgs(args, &in); msg != "" {
			return response{result: s.toolErrorResult(name + ": " + msg), isError: true}
		}
		if in.Name == nil {
			return response{result: s.toolErrorResult(name + ": /name: required"), isError: true}
		}
		opArgs := []byte(in.Arguments)
		switch {
		case len(opArgs) == 0 || string(opArgs) == "null":
			opArgs = []byte("{}")
		case opArgs[0] != '{':
			return response{result: s.toolErrorResult(name + ": /arguments: must be an object"), isError: true}
		}
		tool, msg := s.reachableTool(ctx, *in.Name)
		if tool == nil {
			return response{result: s.toolErrorResult(msg), isError: true}
		}
		return s.callTool(ctx, rs, tool, opArgs)
	}
}

// decodeMetaArgs decodes meta-tool arguments strictly, returning what is
// wrong with them ("" when nothing).
func decodeMetaArgs(args []byte, v any) string {
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return "invalid arguments: " + strings.TrimPrefix(err.Error(), "json: ")
	}
	return ""
}

// reachableTool returns the tool name if the meta-tools reach it for the
// caller, else nil and a message for the model saying why.
func (s *Server) reachableTool(ctx context.Context, name string) (*ToolDef, string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.toolIndex[name]
	if !ok || !s.inSelectedToolset(s.tools[i]) {
		return nil, fmt.Sprintf("unknown operation %q: search_operations finds the operations of this server", name)
	}
	t := s.tools[i]
	if s.opts.ReadOnly && !s.flags[i].readOnly {
		return nil, fmt.Sprintf("operation %q is refused: the server is read-only and this operation is not (readOnlyHint is not true)", name)
	}
	if scopes, ok := callerScopes(ctx); ok && !hasScopes(scopes, t.Scopes) {
		return nil, fmt.Sprintf("operation %q needs the scopes %q, which this caller's token lacks", name, strings.Join(t.Scopes, " "))
	}
	return t, ""
}

// searchOperations answers search_operations.
func (s *Server) searchOperations(ctx context.Context, query, toolset string, limit int) response {
	ix, docs := s.searchIndex()
	s.mu.RLock()
	n := len(docs)
	keep := func(i int) bool {
		return i < n && s.reachable(ctx, i) && (toolset == "" || s.tools[i].Toolset == toolset)
	}
	results := ix.Search(query, limit, keep)
	b := append(make([]byte, 0, 4096), `{"results":[`...)
	budget := searchSchemaBudget
	for k, r := range results {
		t, d := s.tools[r.Doc], docs[r.Doc]
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = wire.AppendString(b, t.Name)
		if d.summary != "" {
			b = append(b, `,"summary":`...)
			b = wire.AppendString(b, d.summary)
		}
		if t.Toolset != "" {
			b = append(b, `,"toolset":`...)
			b = wire.AppendString(b, t.Toolset)
		}
		b = append(b, `,"readOnly":`...)
		b = wire.AppendBool(b, s.flags[r.Doc].readOnly)
		b = append(b, `,"score":`...)
		b = strconv.AppendFloat(b, float64(int(r.Score*100))/100, 'f', -1, 64)
		if k < searchSchemaCount && len(d.inputSchema) > 0 && len(d.inputSchema) <= budget {
			budget -= len(d.inputSchema)
			b = append(b, `,"inputSchema":`...)
			b = append(b, d.inputSchema...)
		}
		b = append(b, '}')
	}
	s.mu.RUnlock()
	b = append(b, ']')
	if len(results) == 0 {
		b = append(b, `,"hint":"No operation matched. Try other words for what you want done, or no toolset."`...)
	}
	b = append(b, '}')
	return s.structuredResult(b)
}

// structuredResult encodes a result whose structuredContent is the JSON
// object b, with its text copy.
func (s *Server) structuredResult(b []byte) response {
	r := s.beginResult(make([]byte, 0, 3*len(b)+160+len(s.serverInfo)), "complete")
	r.key("content")
	r.b = append(r.b, `[{"type":"text","text":`...)
	r.b = wire.AppendString(r.b, string(b))
	r.b = append(r.b, `}]`...)
	r.key("structuredContent")
	r.b = append(r.b, b...)
	return response{result: s.finishResult(r, nil, nil)}
}

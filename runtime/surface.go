package runtime

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// This file decides which tools a server serves and how: the toolsets
// chosen at start (Options.Toolsets), read-only mode (Options.ReadOnly)
// and the instructions paragraph that tells the model what is enabled.
// Discovery mode, which lists meta-tools instead of the tools, is in
// discovery.go.

// The special names of Options.Toolsets.
const (
	// ToolsetsAll selects every toolset.
	ToolsetsAll = "all"
	// ToolsetsDefault selects Options.DefaultToolsets.
	ToolsetsDefault = "default"
)

// toolFlags are a tool's annotations as the surface needs them, read once
// from its definition. A hint the definition leaves out takes MCP's
// default: not read-only, destructive, not idempotent, open world.
type toolFlags struct {
	readOnly, destructive, idempotent, openWorld bool
}

// parseToolFlags reads the annotations of a tool definition. Definitions
// built by ToolDefinition end with their annotations object, which is
// read alone; any other definition is decoded whole.
func parseToolFlags(def string) toolFlags {
	type hints struct {
		ReadOnly    *bool `json:"readOnlyHint"`
		Destructive *bool `json:"destructiveHint"`
		Idempotent  *bool `json:"idempotentHint"`
		OpenWorld   *bool `json:"openWorldHint"`
	}
	var h hints
	const key = `"annotations":{`
	ok := false
	if i := strings.LastIndex(def, key); i >= 0 && strings.HasSuffix(def, "}}") {
		ok = json.Unmarshal([]byte(def[i+len(key)-1:len(def)-1]), &h) == nil
	}
	if !ok {
		var whole struct {
			Annotations hints `json:"annotations"`
		}
		_ = json.Unmarshal([]byte(def), &whole) // AddTool checked it is JSON
		h = whole.Annotations
	}
	val := func(p *bool, def bool) bool {
		if p == nil {
			return def
		}
		return *p
	}
	return toolFlags{
		readOnly:    val(h.ReadOnly, false),
		destructive: val(h.Destructive, true),
		idempotent:  val(h.Idempotent, false),
		openWorld:   val(h.OpenWorld, true),
	}
}

// selectedToolsets resolves Options.Toolsets: nil means every toolset.
// No Toolsets is the default selection.
func (s *Server) selectedToolsets() map[string]bool {
	names := s.opts.Toolsets
	if len(names) == 0 {
		names = []string{ToolsetsDefault}
	}
	sel := map[string]bool{}
	for _, name := range names {
		switch name {
		case ToolsetsAll:
			return nil
		case ToolsetsDefault:
			if len(s.opts.DefaultToolsets) == 0 {
				return nil
			}
			for _, d := range s.opts.DefaultToolsets {
				sel[d] = true
			}
		default:
			sel[name] = true
		}
	}
	return sel
}

// toolServed says whether a tool is served: in a selected toolset (tools
// registered without a toolset always are) and, in read-only mode,
// read-only. s.mu must be held.
func (s *Server) toolServed(t *ToolDef, flags toolFlags) bool {
	return s.inSelectedToolset(t) && (!s.opts.ReadOnly || flags.readOnly)
}

func (s *Server) inSelectedToolset(t *ToolDef) bool {
	return t.Toolset == "" || s.toolsets == nil || s.toolsets[t.Toolset]
}

// Toolsets returns the names of the toolsets of the registered tools,
// sorted.
func (s *Server) Toolsets() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	seen := map[string]bool{}
	for _, t := range s.tools {
		if t.Toolset != "" {
			seen[t.Toolset] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CheckToolsets reports Options.Toolsets and Options.DefaultToolsets
// names that no registered tool belongs to, listing the known ones, so
// that a mistyped --toolsets flag fails at start instead of serving
// nothing. Call it after registering the tools (generated NewServer
// functions have).
func (s *Server) CheckToolsets() error {
	known := s.Toolsets()
	var unknown []string
	for _, name := range slices.Concat(s.opts.Toolsets, s.opts.DefaultToolsets) {
		if name != ToolsetsAll && name != ToolsetsDefault && !slices.Contains(known, name) && !slices.Contains(unknown, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return fmt.Errorf("unknown toolset %s; the toolsets are %s (and %q, %q)",
		quoteList(unknown), quoteList(known), ToolsetsAll, ToolsetsDefault)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// refusal says why a registered tool is not callable, or "" when it is.
// A tool outside the selected toolsets is as good as unknown; a write in
// read-only mode is refused with a reason the model can act on.
func (s *Server) refusal(t *ToolDef) (unknown bool, reason string) {
	if s.toolsets == nil && !s.opts.ReadOnly {
		// Both are fixed in New: with every tool served there is nothing
		// to look up, and tools/call takes no second lock.
		return false, ""
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.inSelectedToolset(t) {
		return true, ""
	}
	if s.opts.ReadOnly && !s.flags[s.toolIndex[t.Name]].readOnly {
		return false, fmt.Sprintf("tool %q is refused: the server is read-only and this tool is not (readOnlyHint is not true)", t.Name)
	}
	return false, ""
}

// surfaceInstructions is Options.Instructions followed by a paragraph on
// what is served: the toolsets, read-only mode and, in discovery mode, how
// to find and call operations. Servers that restrict nothing say nothing
// more.
func (s *Server) surfaceInstructions() string {
	if s.toolsets == nil && !s.opts.ReadOnly && !s.opts.Discovery {
		return s.opts.Instructions
	}
	var b strings.Builder
	b.WriteString(s.opts.Instructions)
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	enabled, all := s.enabledToolsets()
	switch {
	case len(all) == 0:
	case len(enabled) == len(all):
		fmt.Fprintf(&b, "All toolsets are enabled: %s.", strings.Join(all, ", "))
	default:
		fmt.Fprintf(&b, "Enabled toolsets: %s. Not enabled (the server's operator can enable them): %s.",
			strings.Join(enabled, ", "), strings.Join(without(all, enabled), ", "))
	}
	if s.opts.ReadOnly {
		b.WriteString(" The server is read-only: only tools that change nothing are served, and writes are refused.")
	}
	if s.opts.Discovery {
		b.WriteString(" Operations are not listed as tools: find one with search_operations (describe what you want done), " +
			"read its full definition with describe_operation if needed, then run it with call_operation {name, arguments}.")
	}
	return strings.TrimSpace(b.String())
}

// enabledToolsets returns the selected toolsets that have tools, and all
// toolsets, sorted.
func (s *Server) enabledToolsets() (enabled, all []string) {
	all = s.Toolsets()
	for _, n := range all {
		if s.toolsets == nil || s.toolsets[n] {
			enabled = append(enabled, n)
		}
	}
	return enabled, all
}

func without(all, some []string) []string {
	var out []string
	for _, n := range all {
		if !slices.Contains(some, n) {
			out = append(out, n)
		}
	}
	return out
}

// servedDefinitions returns the definitions tools/list sends: the served
// tools, or in discovery mode the meta-tools. allow, when not nil, leaves
// out tools a caller may not call (scopes).
func (s *Server) servedDefinitions(allow func(*ToolDef) bool) []string {
	if s.opts.Discovery {
		return s.metaDefinitions(allow)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	defs := make([]string, 0, len(s.tools))
	for i, t := range s.tools {
		if s.toolServed(t, s.flags[i]) && (allow == nil || allow(t)) {
			defs = append(defs, s.listed[i])
		}
	}
	return defs
}

package generator

import (
	"fmt"

	"github.com/mcpgen-dev/mcpgen/generator/golang"
	"github.com/mcpgen-dev/mcpgen/generator/schema"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// maxInlineNodes bounds the schema nodes of one inlined document: past
// it (mutually recursive types expanded into each other), the document
// is listed shallow instead, which is also free of "$ref".
const maxInlineNodes = 200_000

// cursorNameBudget is Cursor's bound on the server name and tool name
// together: their combined length must stay under 60.
const cursorNameBudget = 59

// applyProfiles rewrites the published tool definitions of docs for the
// client profiles of api (api.Generate.Profiles): the schemas listed in
// tools/list and the names tools are listed and called by. The schema
// files the server embeds are the rewritten ones; the generated
// decoders still validate arguments against the full spec. Every lossy
// rewrite and every renamed tool is a note in api.Notes, and counted in
// api.Profiles.
func applyProfiles(api *spec.API, b *schema.Builder, docs map[*spec.Tool]golang.ToolDocs) error {
	ps := api.Generate.Profiles
	api.Profiles = spec.ProfileReport{}
	if len(ps) == 0 {
		return nil
	}
	inline, doInline := spec.HasProfile(ps, spec.ProfileInlineRefs)
	gemini, doGemini := spec.HasProfile(ps, spec.ProfileGemini)
	if doGemini && !doInline {
		doInline, inline = true, spec.Profile{Name: spec.ProfileGemini, Arg: spec.DefaultInlineDepth, Pos: gemini.Pos}
	}
	n := notes{api: api}
	tolerant := schema.NewTolerant()
	for _, t := range api.Tools {
		d := docs[t]
		if doInline {
			in, losses, err := inlineDoc(b, d.In, t.Input, true, inline.Arg, false, tolerant)
			if err != nil {
				return fmt.Errorf("generator: tool %q: %w", t.Name, err)
			}
			d.In = in
			n.losses(t, inline.Name, "input", losses)
			if d.Out != nil {
				out, losses, err := inlineDoc(b, d.Out, t.Output, false, inline.Arg, golang.WrappedOutput(t), tolerant)
				if err != nil {
					return fmt.Errorf("generator: tool %q: %w", t.Name, err)
				}
				d.Out = out
				n.losses(t, inline.Name, "output", losses)
			}
		}
		if doGemini {
			// Gemini reads function parameters only: outputs are listed
			// as inline-refs leaves them.
			var losses []schema.Loss
			d.In, losses = schema.Gemini(d.In)
			n.losses(t, spec.ProfileGemini, "input", losses)
		}
		docs[t] = d
	}
	return renameTools(api, docs, &n)
}

// inlineDoc is doc without "$ref": inlined, or, when that is too large
// (over the schema budget, or past maxInlineNodes), the shallow document
// of s, tolerant for a wrapped operation's output.
func inlineDoc(b *schema.Builder, doc schema.Object, s *spec.Schema, input bool, depth int, wrapped bool, tolerant *schema.Tolerant) (schema.Object, []schema.Loss, error) {
	out, losses, err := schema.InlineRefs(doc, depth, maxInlineNodes)
	switch {
	case err != nil && !schema.IsInlineTooLarge(err):
		return nil, nil, err
	case err == nil:
		fits, err := b.Fits(out)
		if err != nil || fits {
			return out, losses, err
		}
	}
	shallow, cut, err := b.Shallow(s, input)
	if err != nil {
		return nil, nil, err
	}
	if wrapped {
		shallow = tolerant.Document(shallow)
	}
	what := fmt.Sprintf("inlined schema over the %d KiB budget: listed %d level(s) of named types deep, deeper ones as any value", kib(b.Budget()), cut.Depth)
	return shallow, []schema.Loss{{Pointer: "", What: what}}, nil
}

// renameTools fits tool names to the name-length or cursor profile.
// Two tools that would be listed under one name are an error.
func renameTools(api *spec.API, docs map[*spec.Tool]golang.ToolDocs, n *notes) error {
	budget := 0
	var at spec.Profile
	if p, ok := spec.HasProfile(api.Generate.Profiles, spec.ProfileNameLength); ok {
		budget, at = p.Arg, p
	}
	if p, ok := spec.HasProfile(api.Generate.Profiles, spec.ProfileCursor); ok {
		c := cursorNameBudget - len(api.Server.Name)
		if c < 16 {
			return spec.Diagnostics{{Pos: p.Pos, Message: fmt.Sprintf("generate: profile cursor: the server name %q leaves %d characters for tool names (Cursor counts server and tool name together, under 60): shorten server.name", api.Server.Name, c)}}
		}
		if budget == 0 || c < budget {
			budget, at = c, p
		}
	}
	if budget == 0 {
		return nil
	}
	byName := map[string]*spec.Tool{}
	for _, t := range api.Tools {
		listed := spec.ListedToolName(t.Name, budget)
		if other, ok := byName[listed]; ok {
			return spec.Diagnostics{{Pos: t.Pos, Message: fmt.Sprintf("tool %q: profile %s lists it as %q, the name tool %q is listed by: rename one of them", t.Name, at.Name, listed, other.Name)}}
		}
		byName[listed] = t
		if listed == t.Name {
			continue
		}
		d := docs[t]
		d.Name = listed
		docs[t] = d
		api.Profiles.Renamed++
		n.add(t.Pos, fmt.Sprintf("tool %q: profile %s: listed and called as %q (at most %d characters of [A-Za-z0-9_-])", t.Name, at.Name, listed, budget))
	}
	return nil
}

// notes adds the profiles' notes to api.Notes, once each however often
// api is generated.
type notes struct {
	api  *spec.API
	seen map[spec.Diagnostic]bool
}

func (n *notes) add(pos spec.Pos, msg string) {
	if n.seen == nil {
		n.seen = map[spec.Diagnostic]bool{}
		for _, d := range n.api.Notes {
			n.seen[d] = true
		}
	}
	d := spec.Diagnostic{Pos: pos, Message: msg}
	if !n.seen[d] {
		n.seen[d] = true
		n.api.Notes = append(n.api.Notes, d)
	}
}

func (n *notes) losses(t *spec.Tool, profile, what string, ls []schema.Loss) {
	for _, l := range ls {
		ptr := l.Pointer
		if ptr == "" {
			ptr = "the root"
		}
		msg := fmt.Sprintf("tool %q: profile %s: %s schema at %s: %s", t.Name, profile, what, ptr, l.What)
		n.api.Profiles.Losses = append(n.api.Profiles.Losses, spec.Diagnostic{Pos: t.Pos, Message: msg})
		n.add(t.Pos, msg)
	}
}

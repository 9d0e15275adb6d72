package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/runtime"
	"github.com/mcpgen-dev/mcpgen/spec"
)

const statsSynopsis = `mcpgen stats [-f mcpgen.yaml | --spec FILE] [--max-tool-bytes N] [--max-tool-tokens N]
                    [--max-total-bytes N] [--max-total-tokens N] [--profile P,...] [-q]

Prints, for each tool, the size of its definition as tools/list sends it
(name, title, description, inputSchema, outputSchema, annotations) in bytes
and in estimated tokens, and the same for the whole tools/list result.
Tokens are estimated as ceil(bytes/4), the usual rule of thumb for English
and JSON under GPT- and Claude-style tokenizers; it is an estimate for
budgeting, not a count. Exits 1 when a budget is exceeded.`

// errOverBudget says stats found a definition over a --max-… budget; the
// reasons are already printed (exit 1).
var errOverBudget = errors.New("over budget")

// toolStat is the size of one tool definition.
type toolStat struct {
	Name     string
	Toolset  string
	ReadOnly bool
	// Bytes is the definition as tools/list sends it; BareBytes is the
	// same without outputSchema (surface: outputSchemas: false).
	Bytes, BareBytes int
}

// estimateTokens is the documented estimator: a quarter of the bytes,
// rounded up. Schemas are dense punctuation and short words, for which
// real tokenizers land close to it.
func estimateTokens(bytes int) int { return (bytes + 3) / 4 }

func (c *cli) stats(args []string) error {
	fs := c.newFlags("stats", statsSynopsis)
	specPath := fs.String("f", defaultSpec, "the spec `file`: an mcpgen.yaml, or an OpenAPI 3.x or Swagger 2.0 document")
	fs.StringVar(specPath, "spec", defaultSpec, "the same as -f")
	maxToolBytes := fs.Int("max-tool-bytes", 0, "fail when one tool definition is larger than `N` bytes (0: no limit)")
	maxToolTokens := fs.Int("max-tool-tokens", 0, "fail when one tool definition is estimated at more than `N` tokens")
	maxTotalBytes := fs.Int("max-total-bytes", 0, "fail when the tools/list result is larger than `N` bytes")
	maxTotalTokens := fs.Int("max-total-tokens", 0, "fail when the tools/list result is estimated at more than `N` tokens")
	quiet := quietFlag(fs)
	o := buildOptions{Package: "mcpstats"}
	profileFlags(fs, &o)
	if err := parse(fs, args); err != nil {
		return err
	}
	// The package name does not change a definition; fixing it spares a
	// document in a directory that is no Go identifier a pointless error.
	g, err := c.build(*specPath, o)
	if err != nil {
		return err
	}
	defer printProfileSummary(c.stderr, g.Profiles)
	if !*quiet {
		defer printWarnings(c.stderr, g.Notes)
	}
	tools, err := toolStats(g)
	if err != nil {
		return err
	}

	// tools/list sends {"tools":[def,def,…]} (plus _meta, which does not
	// depend on the spec and is left out).
	total := len(`{"tools":[]}`)
	for i, t := range tools {
		if i > 0 {
			total++
		}
		total += t.Bytes
	}
	totalName := fmt.Sprintf("tools/list (%d tools)", len(tools))
	width := len(totalName)
	for _, t := range tools {
		width = max(width, len(t.Name)+2)
	}
	row := func(name string, bytes, tokens any) {
		fmt.Fprintf(c.stdout, "%-*s  %7v  %13v\n", width, name, bytes, tokens)
	}
	row("tool", "bytes", "tokens (est.)")
	var over []string
	for _, t := range tools {
		tok := estimateTokens(t.Bytes)
		mark := ""
		if *maxToolBytes > 0 && t.Bytes > *maxToolBytes {
			over = append(over, fmt.Sprintf("tool %s: %d bytes > --max-tool-bytes %d", t.Name, t.Bytes, *maxToolBytes))
			mark = " !"
		}
		if *maxToolTokens > 0 && tok > *maxToolTokens {
			over = append(over, fmt.Sprintf("tool %s: ~%d tokens > --max-tool-tokens %d", t.Name, tok, *maxToolTokens))
			mark = " !"
		}
		row(t.Name+mark, t.Bytes, tok)
	}
	totalTok := estimateTokens(total)
	row(totalName, total, totalTok)
	printSurface(c.stdout, tools, g.Surface)
	if *maxTotalBytes > 0 && total > *maxTotalBytes {
		over = append(over, fmt.Sprintf("tools/list: %d bytes > --max-total-bytes %d", total, *maxTotalBytes))
	}
	if *maxTotalTokens > 0 && totalTok > *maxTotalTokens {
		over = append(over, fmt.Sprintf("tools/list: ~%d tokens > --max-total-tokens %d", totalTok, *maxTotalTokens))
	}
	if len(over) > 0 {
		for _, o := range over {
			fmt.Fprintf(c.stderr, "mcpgen: over budget: %s\n", o)
		}
		return errOverBudget
	}
	return nil
}

// listBytes is the size of the tools/list result {"tools":[…]} holding
// definitions of the given sizes (without _meta, which does not depend on
// the spec).
func listBytes(sizes []int) int {
	total := len(`{"tools":[]}`)
	for i, n := range sizes {
		if i > 0 {
			total++
		}
		total += n
	}
	return total
}

// toolsetStat is the size of one toolset's tools.
type toolsetStat struct {
	Name             string
	Tools            int
	Bytes, BareBytes int
}

// toolsetStats sums the tools by toolset, largest first (ties by name).
func toolsetStats(tools []toolStat) []toolsetStat {
	byName := map[string]*toolsetStat{}
	var out []*toolsetStat
	for _, t := range tools {
		name := t.Toolset
		if name == "" {
			name = "(none)"
		}
		s := byName[name]
		if s == nil {
			s = &toolsetStat{Name: name}
			byName[name] = s
			out = append(out, s)
		}
		s.Tools++
		s.Bytes += t.Bytes
		s.BareBytes += t.BareBytes
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Name < out[j].Name
	})
	res := make([]toolsetStat, len(out))
	for i, s := range out {
		res[i] = *s
	}
	return res
}

// printSurface prints the size per toolset (with and without output
// schemas) and the size of tools/list in each way a server can be
// started: by default (the spec's default toolsets), every tool,
// read-only tools only, and discovery mode (three meta-tools).
func printSurface(w io.Writer, tools []toolStat, sf spec.Surface) {
	sets := toolsetStats(tools)
	fmt.Fprintf(w, "\n%-28s  %5s  %9s  %13s  %22s\n", "toolset", "tools", "bytes", "tokens (est.)", "without outputSchema")
	for _, s := range sets {
		fmt.Fprintf(w, "%-28s  %5d  %9d  %13d  %22d\n", s.Name, s.Tools, s.Bytes, estimateTokens(s.Bytes), estimateTokens(s.BareBytes))
	}
	var def, all, ro []int
	for _, t := range tools {
		all = append(all, t.Bytes)
		if t.ReadOnly {
			ro = append(ro, t.Bytes)
		}
		if slices.Contains(sf.DefaultToolsets, t.Toolset) {
			def = append(def, t.Bytes)
		}
	}
	meta := discoverySizes(sf)
	fmt.Fprintf(w, "\n%-28s  %5s  %9s  %13s\n", "tools/list when started", "tools", "bytes", "tokens (est.)")
	rows := []struct {
		name  string
		sizes []int
	}{{"all toolsets", all}, {"--read-only", ro}, {"--discovery", meta}}
	if len(sf.DefaultToolsets) > 0 {
		rows = slices.Insert(rows, 0, struct {
			name  string
			sizes []int
		}{"default toolsets", def})
	}
	for _, m := range rows {
		b := listBytes(m.sizes)
		fmt.Fprintf(w, "%-28s  %5d  %9d  %13d\n", m.name, len(m.sizes), b, estimateTokens(b))
	}
	if len(sf.DefaultToolsets) > 0 {
		fmt.Fprintf(w, "\ndefault toolsets: %s\n", strings.Join(sf.DefaultToolsets, ", "))
	}
	if sf.OmitOutputSchemas {
		fmt.Fprintln(w, "tools are listed without outputSchema (surface: outputSchemas: false)")
	}
}

// serverOptions are the runtime options of a server started as the
// spec's surface: section says: they decide what tools/list sends.
func serverOptions(sf spec.Surface) runtime.Options {
	return runtime.Options{FieldSelection: sf.FieldSelection, OmitOutputSchemas: sf.OmitOutputSchemas}
}

// discoverySizes are the sizes of the definitions tools/list sends in
// discovery mode.
func discoverySizes(sf spec.Surface) []int {
	var sizes []int
	for _, d := range runtime.ListedDiscoveryDefinitions(serverOptions(sf)) {
		sizes = append(sizes, len(d))
	}
	return sizes
}

// toolStats measures the tool definitions of the generated server as
// tools/list sends them (runtime.ListedToolDefinition: with field
// selection, the _fields argument and its enum of paths). Tools are in
// registration order.
func toolStats(g *generation) ([]toolStat, error) {
	defs, err := toolDefinitions(g)
	if err != nil {
		return nil, err
	}
	tools := make([]toolStat, len(defs))
	for i, d := range defs {
		opts := serverOptions(g.Surface)
		t := toolStat{Name: d.Name, Toolset: d.Toolset, ReadOnly: d.ReadOnly}
		t.Bytes = len(runtime.ListedToolDefinition(d.Definition, opts))
		opts.OmitOutputSchemas = true
		t.BareBytes = len(runtime.ListedToolDefinition(d.Definition, opts))
		tools[i] = t
	}
	return tools, nil
}

// generatedTool is a tool definition of the generated server.
type generatedTool struct {
	Name, Toolset string
	ReadOnly      bool
	// Definition is what the generated server passes to AddTool.
	Definition string
}

// toolDefinitions returns the tool definitions of the generated server:
// each is built by the call the server makes, runtime.ToolDefinition over
// the generated schema files, from the arguments written in the generated
// server file, so that measuring them needs no second copy of the
// generator's rules.
func toolDefinitions(g *generation) ([]generatedTool, error) {
	var src []byte
	schemas := fstest.MapFS{}
	for _, f := range g.Files {
		switch {
		case path.Base(f.Path) == "mcpgen_server_gen.go":
			src = f.Data
		case path.Base(path.Dir(f.Path)) == "schemas":
			schemas["schemas/"+path.Base(f.Path)] = &fstest.MapFile{Data: f.Data}
		}
	}
	if src == nil {
		return nil, fmt.Errorf("stats: the generation has no mcpgen_server_gen.go")
	}
	file, err := parser.ParseFile(token.NewFileSet(), "mcpgen_server_gen.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	var tools []generatedTool
	var ferr error
	ast.Inspect(file, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok || ferr != nil {
			return ferr == nil
		}
		if sel, ok := cl.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "ToolDef" {
			return true
		}
		var t generatedTool
		var def *ast.CallExpr
		for _, e := range cl.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch key, _ := kv.Key.(*ast.Ident); {
			case key == nil:
			case key.Name == "Name":
				t.Name, _ = stringLit(kv.Value)
			case key.Name == "Toolset":
				t.Toolset, _ = stringLit(kv.Value)
			case key.Name == "Definition":
				def, _ = kv.Value.(*ast.CallExpr)
			}
		}
		var info runtime.ToolInfo
		if def == nil || len(def.Args) != 4 || evalLit(def.Args[0], reflect.ValueOf(&info).Elem()) != nil {
			ferr = fmt.Errorf("stats: tool %q: no definition found in the generated server", t.Name)
			return false
		}
		input, _ := stringLit(def.Args[2])
		output, _ := stringLit(def.Args[3])
		t.Definition = runtime.ToolDefinition(info, schemas, input, output)
		t.ReadOnly = info.Annotations.ReadOnlyHint
		tools = append(tools, t)
		return true
	})
	return tools, ferr
}

// evalLit sets v to the value of the Go literal e: a string, true or
// false, or a composite literal of the struct and slice types of v (the
// runtime.ToolInfo of a tool definition).
func evalLit(e ast.Expr, v reflect.Value) error {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, ok := stringLit(e)
		if !ok || v.Kind() != reflect.String {
			return fmt.Errorf("%s: not a string", e.Value)
		}
		v.SetString(s)
		return nil
	case *ast.Ident:
		if v.Kind() != reflect.Bool || e.Name != "true" && e.Name != "false" {
			return fmt.Errorf("%s: not a boolean", e.Name)
		}
		v.SetBool(e.Name == "true")
		return nil
	case *ast.CompositeLit:
		for i, el := range e.Elts {
			switch v.Kind() {
			case reflect.Slice:
				v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
				if err := evalLit(el, v.Index(i)); err != nil {
					return err
				}
			case reflect.Struct:
				kv, ok := el.(*ast.KeyValueExpr)
				key, _ := kv.Key.(*ast.Ident)
				if !ok || key == nil || !v.FieldByName(key.Name).CanSet() {
					return fmt.Errorf("an element of a %s literal names no field", v.Type())
				}
				if err := evalLit(kv.Value, v.FieldByName(key.Name)); err != nil {
					return err
				}
			default:
				return fmt.Errorf("a composite literal for a %s", v.Type())
			}
		}
		return nil
	}
	return fmt.Errorf("%T: not a literal", e)
}

func stringLit(e ast.Expr) (string, bool) {
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}

package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

const defaultSpec = "mcpgen.yaml"

func (c *cli) generate(args []string) error {
	fs := c.newFlags("generate", "mcpgen generate [-f mcpgen.yaml | --spec FILE] [--out DIR] [--package NAME] [--profile P,...] [--strict-profile] [-v] [-q]")
	specPath := fs.String("f", defaultSpec, "the spec `file`: an mcpgen.yaml, or an OpenAPI 3.x or Swagger 2.0 document (detected)")
	fs.StringVar(specPath, "spec", defaultSpec, "the same as -f")
	var o buildOptions
	fs.StringVar(&o.Out, "out", "", "write the generated package and its lock file to `DIR` (relative to the working directory) instead of the spec's generate.dir")
	fs.StringVar(&o.Package, "package", "", "the Go package `name` of the generated code (default: generate.package, else the output directory's name)")
	fs.IntVar(&o.BudgetTokens, "budget-tokens", defaultBudgetTokens, "warn when tools/list of the default surface (surface: defaultToolsets, else every tool) is estimated at more than `N` tokens (0: never)")
	profileFlags(fs, &o)
	verbose := fs.Bool("v", false, "print every file written or removed")
	quiet := quietFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	return c.generateSpec(*specPath, o, *verbose, *quiet)
}

// generateSpec generates from the spec at specPath and brings the disk in
// line with it. With verbose, it names every file it writes or removes;
// unless quiet, it then prints the warnings of the spec to stderr.
func (c *cli) generateSpec(specPath string, o buildOptions, verbose, quiet bool) error {
	g, err := c.build(specPath, o)
	if err != nil {
		return err
	}
	// Deferred calls run last first: the warnings, then the summary.
	defer printProfileSummary(c.stderr, g.Profiles)
	if !quiet {
		if w, err := budgetWarning(g, o.BudgetTokens); err != nil {
			return err
		} else if w != nil {
			g.Notes.ds = append(g.Notes.ds, *w)
		}
		defer printWarnings(c.stderr, g.Notes)
	}
	res, err := write(g)
	if err != nil {
		return err
	}
	if verbose {
		for _, p := range res.Written {
			fmt.Fprintf(c.stdout, "wrote %s\n", p)
		}
		for _, p := range res.Removed {
			fmt.Fprintf(c.stdout, "removed %s\n", p)
		}
	}
	return nil
}

// defaultBudgetTokens is the size of tool definitions past which hosts
// warn (about 25k tokens) and models lose track of tools.
const defaultBudgetTokens = 25000

// budgetWarning warns when tools/list of the default surface (the spec's
// default toolsets, else every tool) is over budget tokens, naming the
// toolsets to choose from and the other ways to serve fewer definitions.
// It is at the spec's surface: section when that chooses the default
// toolsets, else at its first tool.
func budgetWarning(g *generation, budget int) (*spec.Diagnostic, error) {
	if budget <= 0 || g.FirstTool == (spec.Pos{}) {
		return nil, nil
	}
	tools, err := toolStats(g)
	if err != nil {
		return nil, err
	}
	defaults := g.Surface.DefaultToolsets
	var sizes, bare []int
	for _, t := range tools {
		if len(defaults) == 0 || slices.Contains(defaults, t.Toolset) {
			sizes = append(sizes, t.Bytes)
			bare = append(bare, t.BareBytes)
		}
	}
	total := estimateTokens(listBytes(sizes))
	if total <= budget {
		return nil, nil
	}
	sets := toolsetStats(tools)
	var named []string
	for _, s := range sets {
		if len(defaults) > 0 && !slices.Contains(defaults, s.Name) {
			continue
		}
		if len(named) == 5 {
			named = append(named, "…")
			break
		}
		named = append(named, fmt.Sprintf("%s ~%d", s.Name, estimateTokens(s.Bytes)))
	}
	// The smallest toolsets are the ones a selection can still add.
	var smallest []string
	for i := len(sets) - 1; i >= 0 && len(smallest) < 5; i-- {
		smallest = append(smallest, fmt.Sprintf("%s ~%d", sets[i].Name, estimateTokens(sets[i].Bytes)))
	}
	meta := discoverySizes(g.Surface)
	what, pos := fmt.Sprintf("tools/list of all %d tools", len(sizes)), g.FirstTool
	choose := fmt.Sprintf("start the server with --toolsets or set surface: defaultToolsets (%d toolsets, largest: %s; smallest: %s; mcpgen stats lists them all)",
		len(sets), strings.Join(named, ", "), strings.Join(smallest, ", "))
	if len(defaults) > 0 {
		what, pos = fmt.Sprintf("tools/list of the default toolsets (%d tools)", len(sizes)), g.Surface.Pos
		choose = fmt.Sprintf("choose fewer or smaller surface: defaultToolsets (chosen: %s; smallest: %s; mcpgen stats lists them all)",
			strings.Join(named, ", "), strings.Join(smallest, ", "))
	}
	if b := estimateTokens(listBytes(bare)); b < total {
		choose += fmt.Sprintf(", set surface: outputSchemas: false (~%d tokens)", b)
	}
	return &spec.Diagnostic{Pos: pos, Message: fmt.Sprintf(
		"%s is ~%d tokens, over the budget of %d (--budget-tokens): %s, "+
			"or start it with --read-only or --discovery (~%d tokens)",
		what, total, budget, choose, estimateTokens(listBytes(meta)))}, nil
}

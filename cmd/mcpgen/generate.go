package main

import (
	"fmt"
	"strings"

	"github.com/mcpgen-dev/mcpgen/runtime"
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
	fs.IntVar(&o.BudgetTokens, "budget-tokens", defaultBudgetTokens, "warn when tools/list of every tool is estimated at more than `N` tokens (0: never)")
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

// budgetWarning warns when tools/list of every tool is over budget
// tokens, naming the largest toolsets and the ways to serve fewer
// definitions. It is at the spec's first tool.
func budgetWarning(g *generation, budget int) (*spec.Diagnostic, error) {
	if budget <= 0 || g.FirstTool == (spec.Pos{}) {
		return nil, nil
	}
	tools, err := toolStats(g)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(tools))
	for i, t := range tools {
		sizes[i] = t.Bytes
	}
	total := estimateTokens(listBytes(sizes))
	if total <= budget {
		return nil, nil
	}
	sets := toolsetStats(tools)
	var largest []string
	for i, s := range sets {
		if i == 5 {
			largest = append(largest, "…")
			break
		}
		largest = append(largest, fmt.Sprintf("%s ~%d", s.Name, estimateTokens(s.Bytes)))
	}
	var meta []int
	for _, d := range runtime.DiscoveryToolDefinitions() {
		meta = append(meta, len(d))
	}
	return &spec.Diagnostic{Pos: g.FirstTool, Message: fmt.Sprintf(
		"tools/list of all %d tools is ~%d tokens, over the budget of %d (--budget-tokens): "+
			"start the server with --toolsets (%d toolsets, largest: %s; mcpgen stats lists them all), "+
			"--read-only, or --discovery (~%d tokens)",
		len(tools), total, budget, len(sets), strings.Join(largest, ", "), estimateTokens(listBytes(meta)))}, nil
}

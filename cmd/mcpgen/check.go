package main

import "fmt"

// check implements both `check` and `diff` (the name sqlc users know).
func (c *cli) check(name string, args []string) error {
	fs := c.newFlags(name, "mcpgen "+name+" [-f mcpgen.yaml] [-q]")
	specPath := fs.String("f", defaultSpec, "the spec `file`")
	quiet := quietFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	g, err := c.build(*specPath, buildOptions{})
	if err != nil {
		return err
	}
	if !*quiet {
		defer printWarnings(c.stderr, g.Notes)
	}
	d, notes, err := drift(g)
	if err != nil {
		return err
	}
	if _, err := c.stdout.Write(d); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(c.stderr, n)
	}
	if len(d) > 0 {
		fmt.Fprintf(c.stderr, "mcpgen: generated files differ from %s; run 'mcpgen generate -f %s'\n", *specPath, *specPath)
		return errDrift
	}
	return nil
}

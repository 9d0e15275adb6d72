package main

import "fmt"

const defaultSpec = "mcpgen.yaml"

func (c *cli) generate(args []string) error {
	fs := c.newFlags("generate", "mcpgen generate [-f mcpgen.yaml] [-v]")
	specPath := fs.String("f", defaultSpec, "the spec `file`")
	verbose := fs.Bool("v", false, "print every file written or removed")
	if err := parse(fs, args); err != nil {
		return err
	}
	return c.generateSpec(*specPath, *verbose)
}

// generateSpec generates from the spec at specPath and brings the disk in
// line with it. With verbose, it names every file it writes or removes.
func (c *cli) generateSpec(specPath string, verbose bool) error {
	g, err := c.build(specPath)
	if err != nil {
		return err
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

package main

import "fmt"

const defaultSpec = "mcpgen.yaml"

func (c *cli) generate(args []string) error {
	fs := c.newFlags("generate", "mcpgen generate [-f mcpgen.yaml | --spec FILE] [--out DIR] [--package NAME] [-v] [-q]")
	specPath := fs.String("f", defaultSpec, "the spec `file`: an mcpgen.yaml, or an OpenAPI 3.x or Swagger 2.0 document (detected)")
	fs.StringVar(specPath, "spec", defaultSpec, "the same as -f")
	var o buildOptions
	fs.StringVar(&o.Out, "out", "", "write the generated package and its lock file to `DIR` (relative to the working directory) instead of the spec's generate.dir")
	fs.StringVar(&o.Package, "package", "", "the Go package `name` of the generated code (default: generate.package, else the output directory's name)")
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
	if !quiet {
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

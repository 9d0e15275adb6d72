// Command mcpgen generates a typed Go MCP server from an mcpgen.yaml
// description of business operations.
//
// Run `mcpgen help` for usage and exit codes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen-dev/mcpgen/spec"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes. Problems in the input and failures of mcpgen itself get
// different codes so that scripts and CI can tell them apart.
const (
	exitOK      = 0 // success, no drift
	exitProblem = 1 // diagnostics, drift, or a refusal to overwrite a user file
	exitUsage   = 2 // bad command line
	exitFailure = 3 // internal or I/O failure
)

const usageText = `mcpgen generates a typed Go MCP server from an mcpgen.yaml description.

Usage:
  mcpgen <command> [flags]

Commands:
  init       create starter files (mcpgen.yaml, service.go, main.go, generate.go)
             where they do not exist yet, then generate
  generate   generate code from the spec, writing only files whose bytes changed
             and removing generated files the spec no longer produces
  check      generate in memory and print a unified diff of every generated file
             that is missing, stale, hand-edited or no longer produced
  diff       the same as check
  breaking   list the changes to tools, resources and prompts since a lock file,
             spec file or git revision (--against) that would break clients
  stats      print the size in bytes and estimated tokens of every tool
             definition and of tools/list; exit 1 over a --max-… budget
  version    print the mcpgen version, the commit it was built from and
             whether that tree was modified, and the Go release
  help       print this help

Every command that reads a spec takes:
  -f file    the spec file (default mcpgen.yaml); generated paths are relative
             to its directory

Run 'mcpgen <command> -h' for the flags of one command.

Exit codes:
  0  success; for check and diff: no differences
  1  problems in the input: spec errors (file:line:col: message), differences
     found by check or diff, or a file that mcpgen would overwrite but did not
     generate
  2  usage error
  3  internal or I/O failure

generate, check, diff and stats print warnings (file:line:col: warning: …)
to stderr for what the spec held that mcpgen dropped or weakened; they do
not change the exit code, and -q hides them.

Use from go generate: add the tool to your module with
  go get -tool github.com/mcpgen-dev/mcpgen/cmd/mcpgen
and write
  //go:generate go tool mcpgen generate -f mcpgen.yaml
`

// cli holds the streams and the pipeline one run of mcpgen works with.
type cli struct {
	stdout, stderr io.Writer
	// build loads the spec at specPath and generates in memory, writing nothing.
	build func(specPath string, o buildOptions) (*generation, error)
}

// run executes the command line args and returns the process exit code.
// stdin is unused today; it is part of the signature so that commands
// reading it need no change to main.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdout: stdout, stderr: stderr, build: buildGeneration}
	return c.run(args)
}

func (c *cli) run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usageText)
		return exitUsage
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			// `mcpgen help generate` shows the command's own flags.
			return c.run([]string{rest[0], "-h"})
		}
		fmt.Fprint(c.stdout, usageText)
		return exitOK
	case "generate":
		err = c.generate(rest)
	case "check", "diff":
		err = c.check(cmd, rest)
	case "init":
		err = c.initCmd(rest)
	case "version":
		err = c.version(rest)
	case "breaking":
		err = c.breaking(rest)
	case "stats":
		err = c.stats(rest)
	default:
		fmt.Fprintf(c.stderr, "mcpgen: unknown command %q\n\n%s", cmd, usageText)
		return exitUsage
	}
	return c.report(err)
}

// usageError is a bad command line (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// problemError is a problem in the user's input that is not a spec
// diagnostic, such as a missing go.mod (exit 1).
type problemError struct{ msg string }

func (e *problemError) Error() string { return e.msg }

// errDrift says check found differences; the diff is already printed.
var errDrift = errors.New("generated files differ from the spec")

// report prints err in the form that suits its kind and returns the exit code.
func (c *cli) report(err error) int {
	if err == nil {
		return exitOK
	}
	var (
		diags   located
		refusal *refusalError
		usage   *usageError
		problem *problemError
		silent  *silentUsageError
	)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errDrift), errors.Is(err, errOverBudget):
		return exitProblem
	case errors.As(err, &diags):
		printDiagnostics(c.stderr, diags.dir, diags.ds)
		return exitProblem
	case errors.As(err, &refusal):
		fmt.Fprintln(c.stderr, refusal)
		return exitProblem
	case errors.As(err, &problem):
		fmt.Fprintf(c.stderr, "mcpgen: %s\n", problem.msg)
		return exitProblem
	case errors.As(err, &silent):
		return exitUsage
	case errors.As(err, &usage):
		fmt.Fprintf(c.stderr, "mcpgen: %s\nRun 'mcpgen help' for usage.\n", usage.msg)
		return exitUsage
	default:
		fmt.Fprintf(c.stderr, "mcpgen: %v\n", err)
		return exitFailure
	}
}

// located is a set of spec diagnostics together with the directory their
// file names are relative to (the spec file's directory as the user named it).
type located struct {
	dir string
	ds  spec.Diagnostics
}

func (l located) Error() string { return l.ds.Error() }

// maxDiagnostics caps the diagnostics printed for one run; a broken spec
// can produce hundreds and the first ones are the ones to fix.
const maxDiagnostics = 50

// printDiagnostics prints ds sorted, one per line, with file names made
// relative to the working directory (dir is the spec's directory as given).
func printDiagnostics(w io.Writer, dir string, ds spec.Diagnostics) {
	printLocated(w, dir, ds, "")
}

// printWarnings prints the notes of a load (spec.API.Notes) as
// printDiagnostics prints errors, each message after "warning: ", once.
// They are printed after the run and do not change its exit code.
func printWarnings(w io.Writer, notes located) {
	printLocated(w, notes.dir, notes.ds, "warning: ")
}

func printLocated(w io.Writer, dir string, ds spec.Diagnostics, prefix string) {
	ds = append(spec.Diagnostics(nil), ds...)
	for i := range ds {
		if ds[i].Pos.File != "" && !filepath.IsAbs(ds[i].Pos.File) {
			ds[i].Pos.File = filepath.Join(dir, filepath.FromSlash(ds[i].Pos.File))
		}
		ds[i].Message = prefix + ds[i].Message
	}
	ds.Sort()
	ds = slices.Compact(ds)
	for i, d := range ds {
		if i == maxDiagnostics {
			fmt.Fprintf(w, "… and %d more\n", len(ds)-maxDiagnostics)
			break
		}
		fmt.Fprintln(w, d.String())
	}
}

// quietFlag adds -q and --quiet, which hide the warnings, to a command that
// builds a generation.
func quietFlag(fs *flag.FlagSet) *bool {
	quiet := fs.Bool("q", false, "do not print warnings (what the spec held that mcpgen dropped or weakened)")
	fs.BoolVar(quiet, "quiet", false, "the same as -q")
	return quiet
}

// newFlags returns a flag set for a subcommand whose usage prints synopsis
// and the flags to stderr.
func (c *cli) newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(c.stderr, "Usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args with fs and rejects positional arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return flag.ErrHelp
		}
		// The flag package has already printed the problem and the usage.
		return &silentUsageError{}
	}
	if fs.NArg() > 0 {
		return &usageError{msg: fmt.Sprintf("%s: unexpected argument %q", fs.Name(), strings.Join(fs.Args(), " "))}
	}
	return nil
}

// silentUsageError is a usage error that has already been printed.
type silentUsageError struct{}

func (*silentUsageError) Error() string { return "usage error" }

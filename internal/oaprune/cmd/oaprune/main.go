// Command oaprune writes an OpenAPI document cut down to some of its
// operations and everything they reach (see package oaprune), for a
// validating mock that cannot load the whole document in useful time.
//
//	go run ./internal/oaprune/cmd/oaprune -o pruned.json spec3.yaml GetCustomers 'GET /v1/charges'
//
// With -requests-only each kept operation answers any object, and only
// what requests reach is kept (see oaprune.PruneRequests).
//
// With -mock-examples the examples that hold a non-local "$ref" member are
// left out first (see oaprune.WithoutExternalExampleRefs), for Prism,
// which would try to download them; each is reported on standard error.
//
// The output is JSON whatever the input.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/mcpgen-dev/mcpgen/internal/oaprune"
)

func main() {
	out := flag.String("o", "", "write the pruned document to this `file` (default: standard output)")
	requestsOnly := flag.Bool("requests-only", false, "answer each kept operation's first success status with any object, keeping only what requests reach (for a mock that judges requests only)")
	mockExamples := flag.Bool("mock-examples", false, "leave out the examples that hold a non-local $ref member, which Prism would try to download")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: oaprune [-o file] document operation...\n\nAn operation is an operationId or \"METHOD /path\".\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 2 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Args()[1:], *out, *requestsOnly, *mockExamples); err != nil {
		fmt.Fprintln(os.Stderr, "oaprune:", err)
		os.Exit(1)
	}
}

func run(file string, ops []string, out string, requestsOnly, mockExamples bool) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	doc, err := oaprune.Decode(data)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	if mockExamples {
		var dropped []string
		doc, dropped = oaprune.WithoutExternalExampleRefs(doc)
		for _, d := range dropped {
			fmt.Fprintf(os.Stderr, "oaprune: left out the example at %s (it holds a non-local $ref)\n", d)
		}
	}
	prune := oaprune.Prune
	if requestsOnly {
		prune = oaprune.PruneRequests
	}
	pruned, err := prune(doc, ops)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	b, err := json.Marshal(pruned)
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(append(b, '\n'))
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

package openapi

import (
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen-dev/mcpgen/internal/oaprune"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// A sweep chunk is a set of tools called against one Prism. Prism loads
// the whole document before it listens, which for the largest documents
// (Stripe, GitHub) takes longer than a sweep can wait; with
// MCPGEN_SWEEP_CHUNK=N the tools are called N at a time, each chunk
// against a Prism serving the document pruned to that chunk's operations
// and what they reach (internal/oaprune), which judges a request to those
// operations exactly as the whole document does. The server is still
// generated from, and built once for, the whole document.
type sweepChunk struct {
	doc   string // the document the mock serves
	tools []tool
	mock  string // "" for Prism, or mockStripe
	skip  bool   // before MCPGEN_SWEEP_FROM: not swept
}

// sweepFrom is the chunk MCPGEN_SWEEP_FROM names (1 when unset).
func sweepFrom(t *testing.T) int {
	v := os.Getenv("MCPGEN_SWEEP_FROM")
	if v == "" {
		return 1
	}
	k, err := strconv.Atoi(v)
	if err != nil || k < 1 {
		t.Fatalf("MCPGEN_SWEEP_FROM=%q: want a chunk number from 1", v)
	}
	return k
}

// sweepChunks splits tools into chunks for doc: one chunk with every tool
// and the whole document unless MCPGEN_SWEEP_CHUNK is set.
// MCPGEN_SWEEP_FROM=K (with MCPGEN_SWEEP_CHUNK) starts at chunk K: the
// chunks before it are neither pruned nor swept, so that a long sweep cut
// short can be finished without calling its first chunks again (same
// chunk size, same document: the chunks are the same).
//
// The mock's copy of the document (each chunk's pruned copy, or the whole
// document rewritten when something had to go) leaves out the examples
// that hold a "$ref" member which is not a local reference
// (oaprune.WithoutExternalExampleRefs): Prism resolves every "$ref" key,
// tries to download such a URL and exits before listening. That changes
// only the answers Prism makes for those operations, not how it judges
// requests.
func sweepChunks(t *testing.T, doc string, tools []tool) []sweepChunk {
	t.Helper()
	size, _ := strconv.Atoi(os.Getenv("MCPGEN_SWEEP_CHUNK"))
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := oaprune.Decode(data)
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	whole, dropped := oaprune.WithoutExternalExampleRefs(whole)
	if len(dropped) > 0 {
		t.Logf("%s: the mock's copy leaves out %d examples that hold a non-local $ref: %s", filepath.Base(doc), len(dropped), strings.Join(dropped, ", "))
	}
	dir := t.TempDir()
	if isStripeDocument(whole) {
		// stripe-mock loads the whole document in seconds (JSON only).
		return []sweepChunk{{doc: writeJSONCopy(t, dir, filepath.Base(doc), whole), tools: tools, mock: mockStripe}}
	}
	if size <= 0 || size >= len(tools) {
		if len(dropped) == 0 {
			return []sweepChunk{{doc: doc, tools: tools}}
		}
		b, err := json.Marshal(whole)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "mock-"+strings.TrimSuffix(filepath.Base(doc), filepath.Ext(doc))+".json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return []sweepChunk{{doc: f, tools: tools}}
	}
	ops := toolOperations(t, doc)
	from := sweepFrom(t)
	var chunks []sweepChunk
	for i := 0; i < len(tools); i += size {
		part := tools[i:min(i+size, len(tools))]
		if i/size+1 < from {
			chunks = append(chunks, sweepChunk{tools: part, skip: true})
			continue
		}
		var sel []string
		for _, tl := range part {
			op, ok := ops[tl.Name]
			if !ok {
				t.Fatalf("%s: tool %q has no operation in the document", doc, tl.Name)
			}
			sel = append(sel, op)
		}
		pruned, err := oaprune.Prune(whole, sel)
		if err != nil {
			t.Fatalf("%s: prune: %v", doc, err)
		}
		b, err := json.Marshal(pruned)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("chunk-%03d.json", len(chunks)+1))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, sweepChunk{doc: f, tools: part})
	}
	return chunks
}

// skippedTools counts the tools of the chunks before MCPGEN_SWEEP_FROM.
func skippedTools(chunks []sweepChunk) int {
	n := 0
	for _, ch := range chunks {
		if ch.skip {
			n += len(ch.tools)
		}
	}
	return n
}

// toolOperations maps each tool mcpgen makes from doc (as `mcpgen init
// --openapi` does, with the default configuration) to its operation, by
// operationId or, for an operation without one, "METHOD /path".
func toolOperations(t *testing.T, doc string) map[string]string {
	t.Helper()
	api, err := spec.LoadOpenAPI(os.DirFS(filepath.Dir(doc)), filepath.Base(doc), spec.OpenAPIConfig{})
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	ops := map[string]string{}
	for _, tl := range api.Tools {
		if tl.Upstream == nil {
			continue
		}
		if id := tl.Upstream.OperationID; id != "" {
			ops[tl.Name] = id
		} else {
			ops[tl.Name] = tl.Upstream.Method + " " + tl.Upstream.Path
		}
	}
	return ops
}

// listTools lists the server's tools; it calls no operation, so its
// upstream is a port nothing listens on.
func listTools(t *testing.T, bin string, creds []string) []tool {
	t.Helper()
	c := startServer(t, bin, "http://127.0.0.1:9", creds...)
	defer c.in.Close()
	return allTools(c)
}

// runningChunk is a chunk with its Prism and server started, or with
// the error that kept its Prism from starting (then no pass is made).
type runningChunk struct {
	sweepChunk
	index, total int // this is chunk index+1 of total
	prism        *prism
	client       *mcpClient
	err          error
}

// sweepPasses yields both passes (0: required arguments, 1: all) of each
// chunk in turn: it starts Prism on the chunk's document and a server in
// front of it, logging how long Prism took to listen, and stops both
// before the next chunk, so that chunks do not pile up. A chunk whose
// Prism does not start is yielded once, with its error, as pass -1.
func sweepPasses(t *testing.T, chunks []sweepChunk, bin string, creds []string) iter.Seq2[int, runningChunk] {
	return func(yield func(int, runningChunk) bool) {
		for i, ch := range chunks {
			if ch.skip {
				continue
			}
			start, server := time.Now(), creds
			p, err := (*prism)(nil), error(nil)
			if ch.mock == mockStripe {
				p, err = tryStartStripeMock(t, ch.doc)
				server = append(slices.Clip(creds), stripeMockCredentials(creds)...)
			} else {
				p, err = tryStartPrism(t, ch.doc)
			}
			if err != nil {
				if !yield(-1, runningChunk{sweepChunk: ch, index: i, total: len(chunks), err: err}) {
					return
				}
				continue
			}
			if len(chunks) > 1 {
				info, _ := os.Stat(ch.doc)
				t.Logf("chunk %d/%d: %d tools, pruned document %d KB, Prism listened in %v", i+1, len(chunks), len(ch.tools), info.Size()>>10, time.Since(start).Round(100*time.Millisecond))
			}
			rc := runningChunk{ch, i, len(chunks), p, startServer(t, bin, p.URL, server...), nil}
			for pass := range 2 {
				if !yield(pass, rc) {
					return
				}
			}
			rc.client.in.Close()
			p.stop()
		}
	}
}

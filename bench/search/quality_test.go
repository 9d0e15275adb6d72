// Package search measures how well a discovery server's operation search
// finds the operation a person asks for, on the task sets in tasks/.
package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/mcpgen-dev/mcpgen/generator/golang"
	"github.com/mcpgen-dev/mcpgen/generator/schema"
	"github.com/mcpgen-dev/mcpgen/generator/searchterms"
	"github.com/mcpgen-dev/mcpgen/runtime/search"
	"github.com/mcpgen-dev/mcpgen/spec"
)

type taskFile struct {
	Document string `yaml:"document"`
	Tasks    []task `yaml:"tasks"`
}

// task is a request and the operations that serve it.
type task struct {
	Task string   `yaml:"task"`
	Area string   `yaml:"area"`
	Ops  []string `yaml:"ops"`
}

// score counts top-1 and top-5 hits over a number of tasks.
type score struct{ top1, top5, n int }

func (s score) String() string {
	if s.n == 0 {
		return "no tasks"
	}
	return fmt.Sprintf("top-1 %5.1f%%  top-5 %5.1f%%  (%d tasks)", 100*float64(s.top1)/float64(s.n), 100*float64(s.top5)/float64(s.n), s.n)
}

func (s *score) add(ranked []int, want map[int]bool) {
	s.n++
	for i, d := range ranked {
		if i >= 5 {
			break
		}
		if want[d] {
			if i == 0 {
				s.top1++
			}
			s.top5++
			return
		}
	}
}

// TestSearchQuality reports, for each task set, the top-1 and top-5 hit
// rates of the runtime's search and of plain word overlap, on the dev half
// of the tasks (even positions: the half the ranking and synonym table
// were tuned on) and the held-out half (odd positions: not looked at while
// tuning until the round of the mined thesaurus, which classified its
// misses; docs/benchmarks.md#operation-search), and on all of each fresh
// set (freshSets: tasks/fresh, written blind after that round's ranking,
// tasks/fresh2, written blind for the second round, tasks/fresh3, for
// the third, tasks/fresh4, for the fourth, tasks/fresh5, written
// during the fourth round after its misses on fresh4 were read, and
// tasks/fresh6, written for the round that read fresh5's; see
// tasks/README.md). A task is a hit at k when any of its operations is
// among the first k results. With -v, SEARCH_MISSES lists misses: "all"
// those of both halves, a fresh set's name ("fresh" to "fresh6") those of
// that set, any other value the dev half's. The documents live beside the
// repository (../shared/openapi, or OPENAPI_DIR); the test is skipped when
// they are absent.
func TestSearchQuality(t *testing.T) {
	for _, name := range []string{"github", "stripe"} {
		t.Run(name, func(t *testing.T) {
			tf := loadTasks(t, filepath.Join("tasks", name+".yaml"))
			fresh := make([]taskFile, len(freshSets))
			for i, set := range freshSets {
				fresh[i] = loadTasks(t, filepath.Join("tasks", set, name+".yaml"))
				if a, b := filepath.Join("tasks", tf.Document), filepath.Join("tasks", set, fresh[i].Document); a != b {
					t.Fatalf("%s/%s.yaml names document %s, %s.yaml names %s", set, name, b, name, a)
				}
			}
			ix := openIndex(t, filepath.Join("tasks", tf.Document))
			docs := ix.docs
			misses := os.Getenv("SEARCH_MISSES")
			var ours, base [2]score
			for i, task := range tf.Tasks {
				half := i % 2
				show := misses == "all" || misses != "" && misses != "others" && !slices.Contains(freshSets, misses) && half == 0
				ix.score(t, task.Task, [2]string{"dev", "held-out"}[half], task.Ops, &ours[half], &base[half], show)
			}
			freshOurs := make([]score, len(freshSets))
			freshBase := make([]score, len(freshSets))
			for i, set := range freshSets {
				for _, task := range fresh[i].Tasks {
					ix.score(t, task.Task, set, task.Ops, &freshOurs[i], &freshBase[i], misses == set)
				}
			}
			keywords, returns := 0, 0
			for _, d := range docs {
				keywords += len(d.Keywords)
				returns += len(d.Returns)
			}
			var counts []string
			for i, set := range freshSets {
				counts = append(counts, fmt.Sprintf("%d %s", len(fresh[i].Tasks), set))
			}
			t.Logf("%s: %d operations, %d tasks (%s), %d bytes of generated search keywords, %d of descriptions of what they return", name, len(docs), len(tf.Tasks), strings.Join(counts, ", "), keywords, returns)
			for _, r := range []struct {
				ranker string
				halves [2]score
				fresh  []score
			}{{"search", ours, freshOurs}, {"overlap", base, freshBase}} {
				t.Logf("  %-8s dev      %v", r.ranker, r.halves[0])
				t.Logf("  %-8s held-out %v", r.ranker, r.halves[1])
				t.Logf("  %-8s all      %v", r.ranker, sum(r.halves))
				for i, set := range freshSets {
					t.Logf("  %-8s %-8s %v", r.ranker, set, r.fresh[i])
				}
			}
		})
	}
}

// TestSearchQualityOtherAPIs reports the top-1 and top-5 hit rates of the
// runtime's search and of word overlap on the task sets of tasks/others:
// 40 requests for each of four more documents of the corpus (Twilio, Slack,
// Discord, OpenAI), written blind (tasks/README.md) as a check on APIs the
// ranking was never tuned on. With -v and SEARCH_MISSES=others it lists
// their misses.
func TestSearchQualityOtherAPIs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("tasks", "others", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no task sets in tasks/others: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			tf := loadTasks(t, file)
			ix := openIndex(t, filepath.Join("tasks", "others", tf.Document))
			var ours, base [2]score
			misses := os.Getenv("SEARCH_MISSES")
			for i, task := range tf.Tasks {
				half := i % 2
				show := misses == "others" && half == 0 || misses == "others-all"
				ix.score(t, task.Task, [2]string{"dev", "held-out"}[half], task.Ops, &ours[half], &base[half], show)
			}
			t.Logf("%s: %d operations, %d tasks", name, len(ix.docs), len(tf.Tasks))
			for _, r := range []struct {
				ranker string
				halves [2]score
			}{{"search", ours}, {"overlap", base}} {
				t.Logf("  %-8s dev      %v", r.ranker, r.halves[0])
				t.Logf("  %-8s held-out %v", r.ranker, r.halves[1])
				t.Logf("  %-8s all      %v", r.ranker, sum(r.halves))
			}
		})
	}
}

// taskIndex is one document's tools indexed as a discovery server indexes
// them, with the word-overlap baseline beside it.
type taskIndex struct {
	docs    []search.Doc
	byOp    map[string]int // operationId → position in docs
	ix      *search.Index
	overlap *overlap
}

// openIndex loads the document at path (see documentPath) and indexes its
// tools; the test is skipped when the document is absent. With
// SEARCH_ROUTELESS set, the tools' routes are left out, as a hand-written
// server's tools carry none: the figures then say how search does on
// names, titles and descriptions alone.
func openIndex(t *testing.T, path string) *taskIndex {
	t.Helper()
	api := loadDocument(t, path)
	docs := Docs(t, api)
	if os.Getenv("SEARCH_ROUTELESS") != "" {
		// As a hand-written server's tools: no route to read.
		for i := range docs {
			docs[i].Route = ""
		}
	}
	byOp := map[string]int{}
	for i, tool := range api.Tools {
		if tool.Upstream != nil {
			byOp[tool.Upstream.OperationID] = i
		}
	}
	return &taskIndex{docs: docs, byOp: byOp, ix: search.New(docs), overlap: newOverlap(docs)}
}

// score ranks task, counts it into ours (the search) and base (word
// overlap) and, with -v and show, logs its miss labelled with set.
func (x *taskIndex) score(t *testing.T, task, set string, ops []string, ours, base *score, show bool) {
	t.Helper()
	want := map[int]bool{}
	for _, op := range ops {
		d, ok := x.byOp[op]
		if !ok {
			t.Fatalf("task %q: no operation %s", task, op)
		}
		want[d] = true
	}
	var ranked []int
	for _, r := range x.ix.Search(task, 5, nil) {
		ranked = append(ranked, r.Doc)
	}
	ours.add(ranked, want)
	base.add(x.overlap.rank(task, 5), want)
	if !testing.Verbose() || !show || hit(ranked, want) {
		return
	}
	var got []string
	for _, d := range ranked {
		got = append(got, x.docs[d].Name)
	}
	rank := -1
	for j, r := range x.ix.Search(task, 100, nil) {
		if want[r.Doc] {
			rank = j + 1
			break
		}
	}
	t.Logf("miss (%s): rank %d %q want %v got %v", set, rank, task, ops, got)
}

// freshSets are the directories under tasks/ of the fresh sets, each
// written blind for one ranking round (tasks/README.md); each holds a file
// per document, reported as its own row and named by SEARCH_MISSES.
var freshSets = []string{"fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6"}

// loadTasks reads a task file.
func loadTasks(t *testing.T, path string) taskFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tf taskFile
	if err := yaml.Unmarshal(data, &tf); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tf
}

// BenchmarkSearch measures one search_operations ranking over GitHub's
// 1,223 operations, and building the index (what a discovery server does
// once, on its first search) with the memory the built index holds
// (index-bytes).
func BenchmarkSearch(b *testing.B) {
	api := loadDocument(b, filepath.Join("..", "..", "..", "shared", "openapi", "github", "api.github.com.json"))
	docs := Docs(b, api)
	b.Run("index", func(b *testing.B) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ix := search.New(docs)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(ix)
		for b.Loop() {
			search.New(docs)
		}
		// After the loop: b.Loop resets what was reported before it.
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc), "index-bytes")
	})
	ix := search.New(docs)
	b.Run("query", func(b *testing.B) {
		for b.Loop() {
			ix.Search("who can get into our private repo acme/payments?", 10, nil)
		}
	})
}

// loadDocument loads the OpenAPI document at path (see documentPath); the
// test is skipped when it is absent.
func loadDocument(tb testing.TB, path string) *spec.API {
	tb.Helper()
	doc := documentPath(path)
	if _, err := os.Stat(doc); err != nil {
		tb.Skipf("document absent: %v", err)
	}
	api, err := spec.Load(os.DirFS(filepath.Dir(doc)), filepath.Base(doc))
	if err != nil {
		tb.Fatal(err)
	}
	return api
}

// documentPath is where a document lives: path (beside the repository),
// or, when OPENAPI_DIR is set (as for tasks/check.py), the same file under
// that directory, for a checkout elsewhere.
func documentPath(path string) string {
	dir := os.Getenv("OPENAPI_DIR")
	if dir == "" {
		return path
	}
	return filepath.Join(dir, filepath.Base(filepath.Dir(path)), filepath.Base(path))
}

func hit(ranked []int, want map[int]bool) bool {
	for _, d := range ranked {
		if want[d] {
			return true
		}
	}
	return false
}

func sum(s [2]score) score {
	return score{s[0].top1 + s[1].top1, s[0].top5 + s[1].top5, s[0].n + s[1].n}
}

// Doc is what a server indexes of a tool's spec: the fields of its
// definition (name, title, description, argument names and descriptions),
// its toolset, the keywords the generator adds (generator/searchterms)
// and the route of its HTTP operation; Docs adds what it returns.
func Doc(t *spec.Tool) search.Doc {
	d := search.Doc{Name: t.Name, Title: t.Title, Description: t.Description, Toolset: t.Toolset,
		ReadOnly: t.Annotations.ReadOnly != nil && *t.Annotations.ReadOnly, Destructive: t.Annotations.Destructive == nil || *t.Annotations.Destructive}
	d.Keywords = searchterms.Keywords(t)
	if t.Upstream != nil {
		d.Route = t.Upstream.Method + " " + t.Upstream.Path
	}
	if t.Input != nil {
		for _, p := range t.Input.Properties {
			d.Params = append(d.Params, p.Name)
			if p.Schema != nil && p.Schema.Description != "" {
				d.ParamDocs = append(d.ParamDocs, p.Schema.Description)
			}
		}
	}
	return d
}

// overlap is the baseline: documents ranked by how many distinct words of
// the query their text contains (lowercased, split at non-letters, no
// stemming, no synonyms), ties in document order.
type overlap struct{ words []map[string]bool }

func newOverlap(docs []search.Doc) *overlap {
	o := &overlap{}
	for _, d := range docs {
		set := map[string]bool{}
		for _, w := range splitWords(d.Name + " " + d.Title + " " + d.Description) {
			set[w] = true
		}
		o.words = append(o.words, set)
	}
	return o
}

func (o *overlap) rank(query string, k int) []int {
	q := map[string]bool{}
	for _, w := range splitWords(query) {
		q[w] = true
	}
	type hitc struct{ doc, n int }
	var hs []hitc
	for d, set := range o.words {
		n := 0
		for w := range q {
			if set[w] {
				n++
			}
		}
		if n > 0 {
			hs = append(hs, hitc{d, n})
		}
	}
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].n > hs[j].n })
	var out []int
	for i := 0; i < len(hs) && i < k; i++ {
		out = append(out, hs[i].doc)
	}
	return out
}

func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// Docs is what a server indexes of api's tools: Doc of each, with the
// description of what it returns read from its output schema as the
// generator writes it into the tool's definition.
func Docs(tb testing.TB, api *spec.API) []search.Doc {
	outs, err := golang.ToolDocuments(api, schema.NewBuilder(api))
	if err != nil {
		tb.Fatal(err)
	}
	docs := make([]search.Doc, len(api.Tools))
	glossary := searchterms.NewGlossary(api)
	for i, tool := range api.Tools {
		docs[i] = Doc(tool)
		docs[i].Glossary = glossary.Phrases(tool)
		if in := outs[tool].In; in != nil {
			// The input schema as the generated server lists it, which
			// the runtime reads the arguments' values from.
			b, err := json.Marshal(in)
			if err != nil {
				tb.Fatal(err)
			}
			_, _, docs[i].ParamValues = search.InputArguments(b)
		}
		if out := outs[tool].Out; out != nil {
			b, err := json.Marshal(out)
			if err != nil {
				tb.Fatal(err)
			}
			docs[i].Returns = search.ResultDescription(b)
		}
	}
	return docs
}

package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"

	"github.com/mcpgen-dev/mcpgen/runtime"
)

// Output names the output schemas of a wrapped operation's tool, as the
// generated package embeds them.
type Output struct {
	// Tool is the tool's name, for logs and messages.
	Tool string
	// Schemas holds the schema files (the generated package's schemaFiles).
	Schemas fs.FS
	// Published is the path of the outputSchema the tool lists: the
	// document's response schema made tolerant of what real APIs commonly
	// deviate in (no required properties, open objects, null accepted
	// wherever a value is typed, no enum, format, pattern or bounds). What
	// StructuredResult returns as structuredContent always satisfies it.
	Published string
	// Document is the path of the response schema exactly as the document
	// gives it (up to the schema budget); a response that breaks it is
	// returned all the same, and the deviation is logged.
	Document string
}

// maxLoggedDeviations bounds the deviations listed per response.
const maxLoggedDeviations = 8

// maxSeenDeviations bounds the deviations remembered as logged already;
// past it the memory starts again, so that a noisy API logs each kind of
// deviation at most once per that many distinct ones.
const maxSeenDeviations = 1024

// StructuredResult returns the JSON response of a wrapped operation as the
// tool's structuredContent, as the API sent it (compacted).
//
// It is checked twice against out's schemas, compiled on first use and
// kept by the client. Against the document's exact response schema: each
// deviation (a missing required property, an undocumented one, a null, an
// unlisted enum value, …) is logged as a warning with the tool, the JSON
// pointer and what the document expected, each kind once (the Logger,
// slog.Default() when nil), and the data is returned all the same.
// Against the published, tolerant schema: a response outside even that
// (a string where the document says object) cannot be structuredContent
// clients accept, so the result is an isError result saying the upstream
// API answered outside its documented shape, with the response's text, so
// that nothing it returned is lost. A response that is empty, not JSON or
// cut by the size cap is such a result too.
func (c *Client) StructuredResult(ctx context.Context, resp *Response, out Output) (*runtime.ToolResult, error) {
	switch {
	case len(bytes.TrimSpace(resp.Body)) == 0 && resp.Truncated == 0:
		return shapeError(fmt.Sprintf("upstream API answered %d with an empty body where its document describes a JSON response; the call itself succeeded", resp.Status)), nil
	case !resp.IsJSON():
		return shapeError(fmt.Sprintf("upstream API answered %d with %s, not JSON: %s", resp.Status, resp.ContentType, shortText([]byte(resp.Text()), resp.ContentType))), nil
	case resp.Truncated > 0:
		return shapeError(fmt.Sprintf("upstream response exceeds the %d-byte cap, so it cannot be structured content; its text: %s", len(resp.Body), resp.Text())), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, resp.Body); err != nil {
		return shapeError(fmt.Sprintf("upstream API answered %d with malformed JSON (%v): %s", resp.Status, err, resp.Text())), nil
	}
	value, err := decodeJSONValue(compact.Bytes())
	if err != nil {
		return shapeError(fmt.Sprintf("upstream API answered %d with malformed JSON (%v): %s", resp.Status, err, resp.Text())), nil
	}
	if value == nil {
		return shapeError(fmt.Sprintf("upstream API answered %d with null where its document describes a JSON response; the call itself succeeded", resp.Status)), nil
	}
	if out.Published == "" {
		return runtime.StructuredResult(compact.Bytes()), nil // any JSON value is the output
	}
	checks, err := c.outputChecks(out)
	if err != nil {
		return nil, err
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.Default()
	}
	if checks.document != nil {
		if devs, more := checks.document.validate(value, maxLoggedDeviations); len(devs) > 0 {
			checks.logDeviations(ctx, logger, out.Tool, devs, more)
		}
	}
	if devs, more := checks.published.validate(value, maxLoggedDeviations); len(devs) > 0 {
		logger.WarnContext(ctx, "upstream response outside its documented shape", "tool", out.Tool, "pointer", devs[0].Pointer,
			"problem", devs[0].Problem, "more", len(devs)-1+more)
		return shapeError(fmt.Sprintf("upstream API answered outside its documented shape (%s), so its response is not structured content; its text: %s",
			devs[0], resp.Text())), nil
	}
	return runtime.StructuredResult(compact.Bytes()), nil
}

// shapeError is the isError result of a response that cannot be the
// tool's structured output. It is not a *runtime.Error or a validation
// error: the caller's arguments were fine.
func shapeError(msg string) *runtime.ToolResult {
	return &runtime.ToolResult{Content: []runtime.Content{runtime.TextContent(msg)}, IsError: true}
}

// outputChecks are the compiled schemas of one tool's output, and the
// deviations already logged for it.
type outputChecks struct {
	published, document *compiledSchema

	mu   sync.Mutex
	seen map[string]bool
}

// outputCache holds the outputChecks of a client's tools, by Published path.
type outputCache struct {
	byPath sync.Map // string → *outputChecks
	mu     sync.Mutex
}

func (c *Client) outputChecks(out Output) (*outputChecks, error) {
	c.outputsOnce.Do(func() { c.outputs = &outputCache{} })
	if oc, ok := c.outputs.byPath.Load(out.Published); ok {
		return oc.(*outputChecks), nil
	}
	// One compilation per tool, even when calls race for it.
	c.outputs.mu.Lock()
	defer c.outputs.mu.Unlock()
	if oc, ok := c.outputs.byPath.Load(out.Published); ok {
		return oc.(*outputChecks), nil
	}
	oc := &outputChecks{seen: map[string]bool{}}
	compile := func(path string) (*compiledSchema, error) {
		data, err := fs.ReadFile(out.Schemas, path)
		if err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", out.Tool, err)
		}
		s, err := compileSchema(data)
		if err != nil {
			return nil, fmt.Errorf("tool %q: output schema %s: %w", out.Tool, path, err)
		}
		return s, nil
	}
	var err error
	if oc.published, err = compile(out.Published); err != nil {
		return nil, err
	}
	if out.Document != "" {
		if oc.document, err = compile(out.Document); err != nil {
			return nil, err
		}
	}
	c.outputs.byPath.Store(out.Published, oc)
	return oc, nil
}

// logDeviations logs each deviation not logged before for this tool. Two
// deviations are of the same kind when they differ only in array indices.
func (oc *outputChecks) logDeviations(ctx context.Context, logger *slog.Logger, tool string, devs []Deviation, more int) {
	oc.mu.Lock()
	var fresh []Deviation
	for _, d := range devs {
		key := indexFree(d.Pointer) + "\x00" + d.Problem
		if oc.seen[key] {
			continue
		}
		if len(oc.seen) >= maxSeenDeviations {
			clear(oc.seen)
		}
		oc.seen[key] = true
		fresh = append(fresh, d)
	}
	oc.mu.Unlock()
	for _, d := range fresh {
		logger.WarnContext(ctx, "upstream response deviates from its document", "tool", tool, "pointer", d.Pointer, "problem", d.Problem)
	}
	if more > 0 && len(fresh) > 0 {
		logger.WarnContext(ctx, "upstream response deviates from its document in more places", "tool", tool, "more", more)
	}
}

// indexFree replaces the array indices of a JSON pointer with "*".
func indexFree(ptr string) string {
	if !strings.ContainsAny(ptr, "0123456789") {
		return ptr
	}
	segs := strings.Split(ptr, "/")
	for i, s := range segs {
		if s != "" && strings.Trim(s, "0123456789") == "" {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

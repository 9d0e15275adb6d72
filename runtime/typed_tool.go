package runtime

import (
	"github.com/mcpgen-dev/mcpgen/runtime/wire"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"
)

// This file holds what generated NewServer functions register tools with:
// the Call of a tool built from its typed handler, and the tool's
// definition built from a few fields and the schema files the generator
// wrote (embedded in the generated package), so that neither is spelled
// out in Go once per tool.

// ToolInput is the pointer type of a generated tool input: UnmarshalJSON
// decodes the arguments object and checks it against the input schema,
// returning a *wire.ValidationError that names every violation.
type ToolInput[T any] interface {
	*T
	UnmarshalJSON(data []byte) error
}

// ToolOutput is the pointer type of a generated tool output, whose
// AppendJSON appends its JSON encoding.
type ToolOutput[T any] interface {
	*T
	AppendJSON(b []byte) []byte
}

// StructuredCall returns the Call of the tool name whose handler returns a
// structured output: it decodes the arguments into In, runs handle, checks
// the output with validate (nil when the output schema has nothing to
// check) and returns the output as structuredContent. An output that
// breaks its schema is a bug of the server, not of the call: it is
// returned as an *InvalidOutputError, not a *wire.ValidationError.
//
// It is not inlined: NewServer calls it once per tool, and each inlined
// copy would compile its closure again inside NewServer (measured on
// Twilio's 197 tools: 10% more compiler memory).
//
//go:noinline
func StructuredCall[In, Out any, PIn ToolInput[In], POut ToolOutput[Out]](name string, handle func(context.Context, In) (Out, error), validate func(*wire.Path, *Out, *wire.Errors)) func(context.Context, []byte) (*ToolResult, error) {
	var frames sync.Pool // of *callFrame[In, Out]
	return func(ctx context.Context, args []byte) (res *ToolResult, err error) {
		f, _ := frames.Get().(*callFrame[In, Out])
		if f == nil {
			f = new(callFrame[In, Out])
		}
		if err = PIn(&f.in).UnmarshalJSON(args); err == nil {
			if f.out, err = handle(ctx, f.in); err == nil {
				if validate != nil {
					validate(&f.root, &f.out, &f.e)
				}
				if verr := f.e.Err(); verr != nil {
					err = &InvalidOutputError{Tool: name, Err: verr}
				} else {
					res = StructuredResult(POut(&f.out).AppendJSON(nil))
				}
			}
		}
		*f = callFrame[In, Out]{}
		frames.Put(f)
		return res, err
	}
}

// ContentCall returns the Call of a tool without an output schema: it
// decodes the arguments into In and returns what handle returns. It is
// not inlined, as StructuredCall is not.
//
//go:noinline
func ContentCall[In any, PIn ToolInput[In]](handle func(context.Context, In) (*ToolResult, error)) func(context.Context, []byte) (*ToolResult, error) {
	var frames sync.Pool // of *callFrame[In, struct{}]
	return func(ctx context.Context, args []byte) (res *ToolResult, err error) {
		f, _ := frames.Get().(*callFrame[In, struct{}])
		if f == nil {
			f = new(callFrame[In, struct{}])
		}
		if err = PIn(&f.in).UnmarshalJSON(args); err == nil {
			res, err = handle(ctx, f.in)
		}
		*f = callFrame[In, struct{}]{}
		frames.Put(f)
		return res, err
	}
}

// callFrame holds the values of one call whose addresses the calls above
// pass on. Those calls go through type parameters, which the compiler
// cannot see into, so values of the call's own stack would move to the
// heap on every call; frames come from a pool instead, so that a typed
// call allocates what the generated code spelled out per tool did. A call
// clears its frame and returns it to the pool in the closure itself, not
// in helper functions or a deferred one: each would be one more function
// compiled per tool (a handler's panic leaves its frame to the collector).
type callFrame[In, Out any] struct {
	in   In
	out  Out
	root wire.Path
	e    wire.Errors
}

// ToolInfo is what a tool definition lists besides its schemas.
type ToolInfo struct {
	Name        string
	Title       string
	Description string
	Icons       []Icon
	Annotations ToolAnnotations
	// Dialect keeps the "$schema" member of the schema documents in the
	// definition: the spec declared it on the tool's input or output
	// (some 2025-11-25 clients look for it).
	Dialect bool
}

// ToolAnnotations are the hints of a tool definition. Every hint is
// listed, so that clients need not know MCP's defaults (destructive and
// open-world when unsaid): a generator states them all.
type ToolAnnotations struct {
	Title           string
	ReadOnlyHint    bool
	DestructiveHint bool
	IdempotentHint  bool
	OpenWorldHint   bool
}

// ToolDefinition returns the JSON of the Tool object of info, as
// ToolDef.Definition wants it: its inputSchema is the JSON Schema document
// at path input of schemas, and its outputSchema the one at output when
// output is not "". The documents are those mcpgen writes to
// schemas/*.schema.json: their leading "$comment" and "$schema" members
// are left out of the definition (the "$schema" stays when info.Dialect
// is set), and they are compacted. It panics when
// a document is missing or not a JSON object, as generated code embeds
// them: that is a bug of the generated package.
func ToolDefinition(info ToolInfo, schemas fs.FS, input, output string) string {
	b := append(make([]byte, 0, 256), `{"name":`...)
	b = wire.AppendString(b, info.Name)
	if info.Title != "" {
		b = append(b, `,"title":`...)
		b = wire.AppendString(b, info.Title)
	}
	if info.Description != "" {
		b = append(b, `,"description":`...)
		b = wire.AppendString(b, info.Description)
	}
	if len(info.Icons) > 0 {
		b = append(b, `,"icons":`...)
		b = appendIcons(b, info.Icons)
	}
	b = append(b, `,"inputSchema":`...)
	b = appendSchemaFile(b, info.Name, schemas, input, info.Dialect)
	if output != "" {
		b = append(b, `,"outputSchema":`...)
		b = appendSchemaFile(b, info.Name, schemas, output, info.Dialect)
	}
	a := info.Annotations
	b = append(b, `,"annotations":{`...)
	if a.Title != "" {
		b = append(b, `"title":`...)
		b = wire.AppendString(b, a.Title)
		b = append(b, ',')
	}
	b = append(b, `"readOnlyHint":`...)
	b = wire.AppendBool(b, a.ReadOnlyHint)
	b = append(b, `,"destructiveHint":`...)
	b = wire.AppendBool(b, a.DestructiveHint)
	b = append(b, `,"idempotentHint":`...)
	b = wire.AppendBool(b, a.IdempotentHint)
	b = append(b, `,"openWorldHint":`...)
	b = wire.AppendBool(b, a.OpenWorldHint)
	b = append(b, "}}"...)
	return string(b)
}

// appendIcons appends icons as a JSON array of Icon objects.
func appendIcons(b []byte, icons []Icon) []byte {
	b = append(b, '[')
	for i, ic := range icons {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"src":`...)
		b = wire.AppendString(b, ic.Src)
		if ic.MimeType != "" {
			b = append(b, `,"mimeType":`...)
			b = wire.AppendString(b, ic.MimeType)
		}
		if len(ic.Sizes) > 0 {
			b = append(b, `,"sizes":[`...)
			for j, s := range ic.Sizes {
				if j > 0 {
					b = append(b, ',')
				}
				b = wire.AppendString(b, s)
			}
			b = append(b, ']')
		}
		if ic.Theme != "" {
			b = append(b, `,"theme":`...)
			b = wire.AppendString(b, ic.Theme)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendSchemaFile appends the schema document at path of schemas,
// compacted, without its leading "$comment" member, and without the
// "$schema" after it unless dialect is set.
func appendSchemaFile(b []byte, tool string, schemas fs.FS, path string, dialect bool) []byte {
	data, err := fs.ReadFile(schemas, path)
	if err != nil {
		panic(fmt.Sprintf("runtime: tool %q: %v", tool, err))
	}
	buf := bytes.NewBuffer(b)
	start := buf.Len()
	if err := json.Compact(buf, data); err != nil {
		panic(fmt.Sprintf("runtime: tool %q: %s is not valid JSON: %v", tool, path, err))
	}
	b = buf.Bytes()
	doc := b[start:]
	if len(doc) == 0 || doc[0] != '{' {
		panic(fmt.Sprintf("runtime: tool %q: %s is not a JSON object", tool, path))
	}
	doc = dropLeadingMember(doc, "$comment")
	if !dialect {
		doc = dropLeadingMember(doc, "$schema")
	}
	// What is left is the end of the document: it moves over what was
	// dropped.
	copy(b[start:], doc)
	return b[:start+len(doc)]
}

// dropLeadingMember returns the compact JSON object obj without its first
// member when that member's key is key and its value a string.
func dropLeadingMember(obj []byte, key string) []byte {
	prefix := `{"` + key + `":"`
	if !bytes.HasPrefix(obj, []byte(prefix)) {
		return obj
	}
	i := len(prefix)
	for i < len(obj) && obj[i] != '"' {
		if obj[i] == '\\' {
			i++
		}
		i++
	}
	i++ // the closing quote
	if i >= len(obj) {
		return obj
	}
	if obj[i] == ',' {
		i++
	}
	// obj[i-1] becomes the object's '{'.
	obj[i-1] = '{'
	return obj[i-1:]
}

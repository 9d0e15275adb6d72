package runtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// IsAtLeastVersion0_1_0 is referenced by generated code so that code
// generated for a newer runtime fails to compile against an older one.
const IsAtLeastVersion0_1_0 = true

// ProtocolVersion is the modern protocol revision this runtime implements.
const ProtocolVersion = "2026-07-28"

// Implementation describes a client or server (serverInfo, clientInfo).
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is an icon of an implementation, tool, resource or prompt.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// CacheHint is the ttlMs/cacheScope pair put on cacheable results.
type CacheHint struct {
	TTLMs int64
	// Scope is "public" or "private".
	Scope string
}

// Options configure a Server.
type Options struct {
	// Info is reported as serverInfo.
	Info         Implementation
	Instructions string
	// ListCache is the cache hint of server/discover and the four list
	// results; ReadCache the default of resources/read. The zero value means
	// {ttlMs: 0, cacheScope: "private"}.
	ListCache CacheHint
	ReadCache CacheHint
	// Logger receives the server's logs (never written to stdout). Nil logs
	// to stderr.
	Logger *slog.Logger
	// StateKeys are the HMAC keys that protect requestState. The first key
	// signs; every key verifies, so keys can be rotated and shared by
	// replicas. When empty, a random key is made per Server.
	StateKeys [][]byte
	// StateTTL bounds how long a requestState stays valid (default 10 minutes).
	StateTTL time.Duration
	// TaskTTL is how long a task and its result stay available after the
	// task is created (default 1 hour); a task still running then is
	// cancelled. TaskPollInterval is the pollIntervalMs suggested to
	// clients (default 1 second). TaskStartAfter is how long a call of a
	// task-capable tool may run before it becomes a task (default 100 ms;
	// StartTask makes it one at once). See docs/runtime.md, Tasks.
	TaskTTL          time.Duration
	TaskPollInterval time.Duration
	TaskStartAfter   time.Duration
	// PageSize is the number of items per list page (default 100).
	PageSize int
	// MaxMessageBytes caps one incoming message (default 4 MiB).
	MaxMessageBytes int

	// Toolsets are the toolsets to serve (ToolDef.Toolset): names, or
	// ToolsetsAll, or ToolsetsDefault for DefaultToolsets. Empty serves
	// DefaultToolsets, and every tool when those are empty too. Tools
	// registered without a toolset are always served.
	// Server.CheckToolsets reports names no tool belongs to.
	Toolsets []string
	// DefaultToolsets are the toolsets ToolsetsDefault stands for; generated
	// servers set them from the spec (surface: defaultToolsets). Empty
	// means every toolset.
	DefaultToolsets []string
	// OmitOutputSchemas lists tools without their outputSchema, which is
	// optional in MCP and often most of a wrapped operation's definition:
	// results still carry structuredContent, validated as before, and
	// describe_operation still shows the whole definition. Generated
	// servers set it from the spec (surface: outputSchemas: false).
	OmitOutputSchemas bool
	// ReadOnly serves only tools whose readOnlyHint is true: the others
	// are not listed, and calling them (by tools/call or call_operation)
	// is refused with a tool error.
	ReadOnly bool
	// Discovery lists three meta-tools instead of the tools:
	// search_operations, describe_operation and call_operation, through
	// which every served tool stays reachable (see discovery.go).
	Discovery bool
	// ResultBudgetTokens caps a tool result at about this many tokens (4
	// bytes each): a larger result is cut to the leading items (or text)
	// that fit, keeping it valid against the output schema, with a text
	// block and _meta["io.mcpgen/truncated"] saying what was left out and
	// the tool's pagination arguments. 0 leaves results whole.
	ResultBudgetTokens int
	// FieldSelection lets callers ask for only some fields of a result:
	// every tool with an object output schema gains an optional "_fields"
	// argument, an enum of the output's field paths, its result keeps only
	// those fields, and its listed outputSchema requires no member, so
	// that a selection validates against it (see fields.go). Generated
	// servers set it from the spec (surface: fieldSelection: true).
	FieldSelection bool
	// Interceptors wrap every request the server dispatches, on every
	// transport and in both protocol eras. The first is the outermost,
	// as with net/http middleware: it sees the request first and the
	// outcome last. See Interceptor.
	Interceptors []Interceptor
	// OnSession, when set, is called when a 2025-11-25 session begins
	// (its initialize has been answered); the function it returns, if
	// any, is called when the session ends (HTTP: DELETE, idle expiry or
	// shutdown; stdio: the connection closes). The 2026-07-28 revision
	// has no sessions. Telemetry uses it for session duration.
	OnSession func(SessionInfo) (end func())
	// Broker connects the replicas of one server (see Broker): change
	// notifications reach every replica's listeners, and a 2025-11-25
	// session id is a token signed with StateKeys that any replica can
	// serve. Replicas must share StateKeys. Nil means a single replica.
	Broker Broker
}

// SessionInfo describes a 2025-11-25 session to Options.OnSession.
type SessionInfo struct {
	// ID is the Mcp-Session-Id over HTTP; empty on stdio.
	ID string
	// ProtocolVersion is the negotiated revision.
	ProtocolVersion string
	// Transport is "stdio" or "http".
	Transport  string
	ClientInfo *Implementation
}

// ToolDef registers one tool. Generated code fills it.
type ToolDef struct {
	Name string
	// Definition is the JSON of the Tool object as listed by tools/list.
	Definition string
	// Scopes are the OAuth scopes a caller needs (enforced over HTTP).
	Scopes []string
	// Toolset is the named group the tool belongs to, which
	// Options.Toolsets selects; "" when it belongs to none (always served).
	Toolset string
	// ParamHeaders are the x-mcp-header mappings of the input schema.
	ParamHeaders []ParamHeader
	// SearchKeywords are more words by which discovery mode's
	// search_operations finds the tool (synonyms of the words of its name
	// and title), found when the server was generated; "" for none.
	SearchKeywords string
	// SearchGlossary is everyday words for the API's jargon in the tool's
	// name and route ("cloud development environment" for codespaces), by
	// which search_operations finds it, found when the server was
	// generated; "" for none.
	SearchGlossary string
	// SearchRoute is the HTTP operation the tool calls ("GET
	// /repos/{owner}/{repo}/pulls"), by which search_operations tells
	// what kind of object it acts on and how; "" when it calls none.
	SearchRoute string
	// SearchReturns is the first paragraph of the description of what the
	// tool returns, read from its output schema when the server was
	// generated (search.ResultDescription), by which search_operations
	// finds it in the words the API uses for its object ("A SetupIntent
	// guides you through … saving a customer's payment credentials for
	// future payments"); "" for none.
	SearchReturns string
	// Task says whether the tool can run as a task (the tasks extension):
	// TaskNever (zero), TaskOptional or TaskRequired.
	Task TaskSupport
	// Call decodes and validates the raw arguments object, runs the
	// handler and returns its result. A returned *Error becomes a JSON-RPC
	// error; an input-required error (from Elicit) becomes an
	// input_required result; a *wire.ValidationError or any other error
	// becomes an isError result naming the problem.
	Call func(ctx context.Context, args []byte) (*ToolResult, error)

	// fields serves field selections (Options.FieldSelection); nil when
	// the tool offers none.
	fields *fieldSelector
}

// ParamHeader maps an input property to the Mcp-Param-{Name} HTTP header.
type ParamHeader struct {
	Name string
	// Path is the chain of property names from the arguments object.
	Path []string
	// Type is "string", "integer" or "boolean".
	Type string
}

// ToolResult is the result of a tools/call.
type ToolResult struct {
	Content []Content
	// Structured is the raw JSON of structuredContent; nil when none. When
	// Content is empty, the runtime adds a text block holding it.
	Structured []byte
	IsError    bool
}

// StructuredResult returns a result whose structuredContent is the given
// JSON (and whose content is its text).
func StructuredResult(structured []byte) *ToolResult {
	return &ToolResult{Structured: structured}
}

// Content is one content block: text, image, audio, resource_link or an
// embedded resource. Use the constructors.
type Content struct {
	Type     string
	Text     string
	Data     []byte // image and audio bytes (base64 on the wire)
	MimeType string
	// Resource is the embedded resource of a "resource" block.
	Resource *ResourceContents
	// Link is the resource of a "resource_link" block.
	Link        *ResourceLink
	Annotations *Annotations
}

// ResourceLink is the target of a resource_link content block.
type ResourceLink struct {
	URI         string
	Name        string
	Title       string
	Description string
	MimeType    string
	Size        *int64
}

// Annotations are optional hints on content and resources.
type Annotations struct {
	Audience     []string
	Priority     *float64
	LastModified string
}

// TextContent returns a text content block.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// ImageContent returns an image content block.
func ImageContent(data []byte, mimeType string) Content {
	return Content{Type: "image", Data: data, MimeType: mimeType}
}

// AudioContent returns an audio content block.
func AudioContent(data []byte, mimeType string) Content {
	return Content{Type: "audio", Data: data, MimeType: mimeType}
}

// EmbeddedResource returns a content block embedding a resource.
func EmbeddedResource(rc ResourceContents) Content {
	return Content{Type: "resource", Resource: &rc}
}

// ResourceLinkContent returns a resource_link content block.
func ResourceLinkContent(link ResourceLink) Content {
	return Content{Type: "resource_link", Link: &link}
}

// ResourceContents is one item of a resources/read result: text, or a
// blob when Blob is non-nil.
type ResourceContents struct {
	URI      string
	MimeType string
	Text     string
	Blob     []byte
}

// ResourceDef registers a resource with a fixed URI.
type ResourceDef struct {
	URI string
	// Definition is the JSON of the Resource object as listed by resources/list.
	Definition string
	MimeType   string
	// Cache overrides Options.ReadCache for this resource.
	Cache *CacheHint
	// Read returns the contents. An empty URI or MimeType in the returned
	// contents is filled from the request and the definition.
	Read func(ctx context.Context, uri string) ([]ResourceContents, error)
}

// TemplateDef registers a resource template.
type TemplateDef struct {
	URITemplate string
	// Definition is the JSON of the ResourceTemplate object.
	Definition string
	MimeType   string
	Cache      *CacheHint
	// Read is called for a URI that matches the template, with the values
	// of its variables. Return ResourceNotFound(uri) for a missing resource.
	Read func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error)
	// Complete completes the template's variables, by variable name.
	Complete map[string]CompleteFunc
}

// PromptDef registers a prompt.
type PromptDef struct {
	Name string
	// Definition is the JSON of the Prompt object as listed by prompts/list.
	Definition string
	// Get validates the arguments and renders the prompt. Return
	// InvalidParams for missing or invalid arguments.
	Get func(ctx context.Context, args map[string]string) (*PromptResult, error)
	// Complete completes the prompt's arguments, by argument name.
	Complete map[string]CompleteFunc
}

// PromptResult is the result of prompts/get.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role    string // "user" or "assistant"
	Content Content
}

// CompleteFunc returns completion values for one argument.
type CompleteFunc func(ctx context.Context, req CompleteRequest) (Completion, error)

// CompleteRequest is a completion/complete request for one argument.
type CompleteRequest struct {
	// Argument is the name of the argument or variable being completed.
	Argument string
	// Value is what the user has typed so far.
	Value string
	// Context holds the values of already resolved arguments.
	Context map[string]string
}

// Completion is the answer to a completion/complete request. At most 100
// values are sent; the runtime sets HasMore when it cuts the list.
type Completion struct {
	Values  []string
	Total   int
	HasMore bool
}

// Identity is the verified caller of a request: from the token verifier over
// HTTP, or from the process environment over stdio.
type Identity struct {
	Subject string
	Scopes  []string
	Claims  map[string]any
}

// RequestMeta is what the client sent in a request's _meta.
type RequestMeta struct {
	ProtocolVersion    string
	ClientInfo         *Implementation
	ClientCapabilities json.RawMessage
	ProgressToken      json.RawMessage
	LogLevel           string
	// Trace is the W3C trace context the client put in _meta; nil when
	// it sent none.
	Trace *TraceContext
}

// TraceContext is the W3C trace context of a request, carried in
// params._meta as traceparent, tracestate and baggage (keys the
// 2026-07-28 revision reserves for it; 2025-era clients put them there
// too). Empty members were absent. The runtime only carries them; an
// instrumentation such as runtime/otelmcp continues the trace.
type TraceContext struct {
	Traceparent string
	Tracestate  string
	Baggage     string
}

// ElicitRequest asks the user for input: a form (Schema set) or, with URL
// set, an out-of-band URL.
type ElicitRequest struct {
	Message string
	// Schema is the JSON of requestedSchema (an object of primitive
	// properties) for form mode.
	Schema string
	// URL switches to URL mode.
	URL string
}

// ElicitResult is the user's answer.
type ElicitResult struct {
	// Action is "accept", "decline" or "cancel".
	Action string
	// Content holds the submitted form values (accept in form mode).
	Content map[string]any
}

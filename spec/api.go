// Package spec loads a description of business operations (an mcpgen.yaml
// file, and later OpenAPI documents) into one language-neutral model, the API.
//
// The model carries JSON types and constraints, documentation and source
// positions; it knows nothing about Go. Every problem found while loading is a
// Diagnostic with a position, and all of them are reported at once.
package spec

import "encoding/json"

// Pos is a position in a source file. Line and Col are 1-based; a zero Pos
// means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

// API is a loaded, validated description of one MCP server.
type API struct {
	// File is the path of the root spec file, as given to Load.
	File string
	// Generate holds the output settings of the config (package name, directory).
	Generate GenerateConfig
	Server   Server
	// Types are the named types, in declaration order.
	Types     []*NamedType
	Tools     []*Tool
	Resources []*Resource
	Templates []*ResourceTemplate
	Prompts   []*Prompt

	// Notes are warnings that did not stop the load: what an OpenAPI
	// document held that mcpgen dropped or weakened (credential parameters,
	// unsupported schema keywords), each at its position in the document.
	Notes []Diagnostic
	// UpstreamURL is the base URL of the wrapped REST API (the first OpenAPI
	// server, or Swagger 2.0 scheme://host/basePath); "" when not stated or
	// not an OpenAPI-derived API. Upstream.Path is appended to it.
	UpstreamURL string
	// MaxSchemaBytes is the budget, in bytes of compact JSON, of each tool's
	// inputSchema and outputSchema; 0 means none. A schema over it is listed
	// shallower (nested named types elided) and noted; the generated Go
	// code still validates against the exact schema. OpenAPI-derived APIs
	// have one (OpenAPIConfig.MaxSchemaBytes).
	MaxSchemaBytes int
	// Profiles is what the client profiles (Generate.Profiles) changed,
	// filled in by the generator.
	Profiles ProfileReport
	// Surface is what the generated server serves by default (surface:).
	Surface Surface
	// SecuritySchemes are the upstream API's security schemes that the tools'
	// Upstream.Security names, in document order.
	SecuritySchemes []*SecurityScheme
}

// SecurityScheme is how the upstream REST API takes credentials. The
// generated client fills these from its configuration, never from tool
// arguments.
type SecurityScheme struct {
	Name string
	// Type is apiKey, http, oauth2, openIdConnect or mutualTLS (Swagger 2.0
	// "basic" becomes http with Scheme basic).
	Type string
	// In and ParamName place an apiKey: header, query or cookie, and its name.
	In        string
	ParamName string
	// Scheme is the HTTP auth scheme of Type http (bearer, basic).
	Scheme string
	Pos    Pos
}

// GenerateConfig says where and how generated code is written.
type GenerateConfig struct {
	// Package is the Go package name of the generated code: generate.package,
	// else the base name of Dir, else (Dir ".") of the spec file's directory.
	// It is "" when that directory has no name in the fs.FS given to Load
	// (the spec sits at its root): the caller, which knows the real
	// directory, derives it then.
	Package string
	// Dir is the output directory, relative to the spec file's directory,
	// slash-separated and cleaned ("." by default).
	Dir string
	// Profiles are the client profiles of generate.profile, in the order
	// written: rewrites of the published tool definitions (see Profile).
	Profiles []Profile
	// StringFormats is generate.types: strings. It keeps the strings of
	// format date-time and date and of contentEncoding base64 Go strings
	// in the generated types, instead of time.Time, runtime.Date and
	// []byte.
	StringFormats bool
	Pos           Pos
}

// Server describes the server itself: what server/discover and the
// io.modelcontextprotocol/serverInfo _meta key report.
type Server struct {
	Name         string
	Title        string
	Version      string
	Description  string
	Instructions string
	WebsiteURL   string
	Icons        []Icon
	// ListCache is the default cache hint of list results (server/discover,
	// tools/list, prompts/list, resources/list, resources/templates/list).
	ListCache *CacheHint
	// ReadCache is the default cache hint of resources/read results.
	ReadCache *CacheHint
	Pos       Pos
}

// Icon is an icon of the server, a tool, a resource or a prompt.
type Icon struct {
	Src      string
	MimeType string
	Sizes    []string
	Theme    string // "", "light" or "dark"
}

// CacheHint is a ttlMs/cacheScope pair.
type CacheHint struct {
	TTLMs int64
	Scope string // "public" or "private"
	Pos   Pos
}

// NamedType is a type declared under `types:` and referenced by $ref.
type NamedType struct {
	Name   string
	Schema *Schema
	Pos    Pos
	// Binding says, for a copy of a type the loader made to bind its
	// $dynamicRef keywords, which type it copies and how it binds them
	// ("List with $dynamicAnchor item bound to StringListItem"); "" for
	// the others.
	Binding string
}

// Kind is a JSON Schema type.
type Kind string

// The kinds a Schema can have. KindAny accepts every JSON value.
const (
	KindObject  Kind = "object"
	KindString  Kind = "string"
	KindInteger Kind = "integer"
	KindNumber  Kind = "number"
	KindBoolean Kind = "boolean"
	KindArray   Kind = "array"
	KindNull    Kind = "null"
	KindAny     Kind = ""
)

// Schema is one JSON Schema (draft 2020-12) node, restricted to what mcpgen
// can generate code for.
//
// Exactly one of Ref, OneOf or Type describes its shape: a Ref points at a
// NamedType (Description and Nullable may sit beside it); OneOf holds the
// variants of a union; otherwise Type says what it is (KindAny when unset).
type Schema struct {
	Pos Pos

	// Ref is the name of a NamedType.
	Ref string

	Type Kind
	// Types is a list of several types (type: [string, integer]), Type
	// then being KindAny: the value is of one of them, and each
	// type-specific keyword applies to values of its type only
	// (schema_types.go). nil for one type, or a nullable one.
	Types       []Kind
	Title       string
	Description string
	// Nullable also accepts JSON null.
	Nullable bool
	// Default is the JSON value used when the property is absent; nil when none.
	Default json.RawMessage
	// Examples are JSON values.
	Examples []json.RawMessage
	// Enum lists the allowed JSON values (all of Type); nil when unrestricted.
	Enum []json.RawMessage
	// Const is the only allowed JSON value; nil when unrestricted.
	Const json.RawMessage
	// Deprecated marks the schema as deprecated.
	Deprecated bool

	// String constraints.
	MinLength *int64
	MaxLength *int64
	Pattern   string
	// Format is one of date, date-time, email, uri, uuid (others are carried
	// into the JSON Schema but not checked).
	Format string
	// ContentEncoding and ContentMediaType describe encoded strings (base64 files).
	ContentEncoding  string
	ContentMediaType string

	// Number and integer constraints.
	Minimum          *float64
	Maximum          *float64
	ExclusiveMinimum *float64
	ExclusiveMaximum *float64
	MultipleOf       *float64

	// Array constraints.
	Items       *Schema
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool

	// Object shape. Properties keep declaration order.
	Properties []*Property
	// AllowAdditional accepts properties not listed in Properties (false,
	// the mcpgen.yaml default, forbids them). When AdditionalProperties is
	// also set, every extra property must satisfy it.
	AllowAdditional      bool
	AdditionalProperties *Schema
	MinProperties        *int64
	MaxProperties        *int64

	// OneOf holds the variants of a union; exactly one must match.
	OneOf []*Schema
	// AnyOf marks a OneOf that came from an OpenAPI anyOf: at least one
	// variant must match, and several may. Generated decoders should try the
	// variants in order and keep the first that matches instead of failing
	// when more than one does.
	AnyOf bool
	// Discriminator names the property that selects the variant of a OneOf.
	Discriminator *Discriminator

	// Header is the x-mcp-header name of this property ("" when none): the
	// value is mirrored in the HTTP header Mcp-Param-{Header}.
	Header string

	// GoType points at an existing Go type ("github.com/acme/orders.Order"
	// or "Order" for the package generated into) for code-first schemas.
	// In a spec file it only appears on a tool input or output or a named
	// type; gotype.Resolve then fills the schema from the Go type and sets
	// GoType on every schema it derives to the Go type expression of the
	// value there, named types qualified by import path
	// ("*github.com/acme/orders.Item", "[]string", "int32"; local types
	// unqualified), so that generated code can use the type as it is.
	GoType string
	// GoPos is the position of the go: key; zero when there is none.
	GoPos Pos

	// JSON Schema 2020-12 applicators and core keywords (schema_applicators.go).
	Applied
	// prefixItems, and the keywords unevaluated items and members were
	// written with (schema_tuple.go).
	Tuple
}

// IsAnyValue reports whether s accepts every JSON value without constraint.
func (s *Schema) IsAnyValue() bool {
	return s != nil && s.Ref == "" && s.Type == KindAny && len(s.Types) == 0 && len(s.OneOf) == 0 &&
		s.Enum == nil && s.Const == nil && !s.HasApplicators()
}

// Property is a named member of an object schema.
type Property struct {
	Name     string
	Schema   *Schema
	Required bool
	Pos      Pos
	// GoName is the Go field that holds the property in a code-first type
	// (see Schema.GoType); a field of an embedded struct is named by its
	// selector path ("Base.ID"). "" for spec-defined schemas.
	GoName string
	// Implied marks a property that only constraint subschemas of an
	// object with unevaluatedProperties name (in properties or required
	// of allOf, anyOf, oneOf, not, if, then, else, or as a dependentSchemas
	// key): it is not published among the object's properties, and a
	// member by that name is evaluated only where a subschema that names
	// it in properties passes (schema_unevaluated.go).
	Implied bool
	// ReadOnly properties are left out of input schemas and WriteOnly ones
	// out of output schemas, at any depth (OpenAPI's readOnly and
	// writeOnly: the API sets the one and never returns the other).
	ReadOnly, WriteOnly bool
}

// Discriminator selects a OneOf variant by the value of one property.
type Discriminator struct {
	PropertyName string
	// Mapping maps a property value to the variant: a NamedType name. Order
	// follows the OneOf.
	Mapping []DiscriminatorCase
	Pos     Pos

	// casePos are the positions of the mapping entries as written, in
	// the order of the written Mapping; the checks use and then drop it.
	casePos []Pos
}

// DiscriminatorCase is one value → variant entry of a Discriminator.
type DiscriminatorCase struct {
	Value string
	Type  string
}

// Annotations are the tool annotation hints; nil means "not stated".
type Annotations struct {
	Title       string
	ReadOnly    *bool
	Destructive *bool
	Idempotent  *bool
	OpenWorld   *bool
}

// Tool is one MCP tool.
type Tool struct {
	Name        string
	Title       string
	Description string
	Icons       []Icon
	Annotations Annotations
	// Input is the arguments schema; its Type is always KindObject.
	Input *Schema
	// Output is the structured result schema, of any root type; nil when the
	// tool returns free-form content.
	Output *Schema
	// Scopes are the OAuth scopes a caller needs to call the tool.
	Scopes []string
	// Toolset is the named group the tool belongs to, by which a server
	// is told which tools to serve (see ToolsetName). Never empty after
	// loading: tools that name none are in DefaultToolset.
	Toolset string
	// Task says whether the tool can run as a task of the tasks extension
	// (io.modelcontextprotocol/tasks): "" (never), TaskOptional or
	// TaskRequired.
	Task string
	// Upstream binds the tool to an HTTP operation (OpenAPI); nil otherwise.
	Upstream *Upstream
	Pos      Pos
}

// Upstream describes the HTTP operation an OpenAPI-derived tool calls.
// It is filled by the OpenAPI loader.
type Upstream struct {
	Method string
	Path   string
	// OperationID is the operation's operationId ("" when it has none).
	OperationID string
	// Params maps each input property to where it goes in the request.
	Params []UpstreamParam
	// BodyContentType is the request body's media type ("" when none).
	BodyContentType string
	// BodyRequired says the document requires the request body. An
	// optional body is sent only when the call gives one of its fields.
	BodyRequired bool
	// Security lists the alternatives of security requirements, each a set
	// of scheme names.
	Security [][]string
}

// UpstreamParam places one input property into the HTTP request.
type UpstreamParam struct {
	Property string // name in the tool's input object
	Name     string // name in the HTTP request
	In       string // path, query, header, cookie, body (a body field), bodyAll (the whole body)
	Style    string
	Explode  bool
	// MultiSegment marks a path parameter whose value may span several
	// path segments (x-multi-segment or x-mcp-multi-segment: true), such
	// as a file path; any other path parameter is exactly one segment.
	MultiSegment bool
	// RequiredInBody marks a body field the body's schema requires: when
	// the body is optional, the field is optional in the tool's input but
	// required whenever the body is sent.
	RequiredInBody bool
}

// Resource is a resource with a fixed URI.
type Resource struct {
	URI         string
	Name        string
	Title       string
	Description string
	MimeType    string
	Size        *int64
	Icons       []Icon
	Cache       *CacheHint
	Pos         Pos
}

// ResourceTemplate is a family of resources under an RFC 6570 URI template.
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MimeType    string
	Icons       []Icon
	Cache       *CacheHint
	// Variables are the template's {var}s, in template order, each typed
	// (string, integer, number or boolean) with constraints.
	Variables []*Variable
	Pos       Pos
}

// Variable is a typed URI template variable.
type Variable struct {
	Name     string
	Schema   *Schema
	Complete *Completion
	Pos      Pos
}

// Prompt is an MCP prompt.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Icons       []Icon
	Arguments   []*PromptArgument
	Pos         Pos
}

// PromptArgument is a (string) argument of a prompt.
type PromptArgument struct {
	Name        string
	Title       string
	Description string
	Required    bool
	Complete    *Completion
	Pos         Pos
}

// Completion says how values of a prompt argument or template variable are
// completed: from a static list, or by a handler method.
type Completion struct {
	Values  []string
	Handler bool
	Pos     Pos
}

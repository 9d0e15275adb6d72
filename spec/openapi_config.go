package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// openAPIEntry lets Load take an OpenAPI/Swagger document directly, or an
// mcpgen.yaml whose openapi: section names one. It reports ok=false for a
// plain mcpgen.yaml, which the YAML loader then reads as usual.
//
// The check looks only at top-level keys, without parsing the whole file,
// so a 13 MB document is not read twice: openapi: with a scalar (3.0.3) or
// swagger: is a document; openapi: with a mapping is an mcpgen.yaml.
func openAPIEntry(fsys fs.FS, file string, data []byte) (api *API, err error, ok bool) {
	switch topLevelOpenAPIKey(data) {
	case "document":
		api, err := loadOpenAPI(fsys, file, data, OpenAPIConfig{})
		if api != nil {
			api.Generate.Package = defaultPackage(file, api.Generate.Dir)
		}
		return api, err, true
	case "config":
		api, err := loadOpenAPIConfig(fsys, file, data)
		return api, err, true
	}
	return nil, nil, false
}

var (
	yamlTopKeyRE  = regexp.MustCompile(`(?m)^["']?(openapi|swagger)["']?\s*:[ \t]*([^\s#].*)?$`)
	jsonTopKeyRE  = regexp.MustCompile(`^\s*\{\s*"(openapi|swagger)"\s*:\s*(.)`)
	jsonAnyKeysRE = regexp.MustCompile(`"(openapi|swagger)"\s*:\s*(.)`)
)

// topLevelOpenAPIKey returns "document", "config" or "".
func topLevelOpenAPIKey(data []byte) string {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		// JSON: the key is usually first; otherwise read the top-level keys.
		if m := jsonTopKeyRE.FindSubmatch(trimmed); m != nil {
			return oaJSONKind(string(m[1]), m[2][0])
		}
		if !jsonAnyKeysRE.Match(trimmed) {
			return ""
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(trimmed, &top) != nil {
			return ""
		}
		for _, k := range []string{"openapi", "swagger"} {
			if v, ok := top[k]; ok && len(v) > 0 {
				return oaJSONKind(k, v[0])
			}
		}
		return ""
	}
	m := yamlTopKeyRE.FindSubmatch(data)
	if m == nil {
		return ""
	}
	if string(m[1]) == "openapi" && len(bytes.TrimSpace(m[2])) == 0 {
		return "config"
	}
	if string(m[1]) == "openapi" && bytes.HasPrefix(bytes.TrimSpace(m[2]), []byte("{")) {
		return "config"
	}
	return "document"
}

func oaJSONKind(key string, first byte) string {
	if key == "openapi" && first == '{' {
		return "config"
	}
	return "document"
}

// defaultPackage is the Go package of generated code when none is set: the
// base name of the output directory, "" when unknown (the caller fills it).
func defaultPackage(file, dir string) string {
	if dir == "" || dir == "." {
		dir = path.Dir(file)
	}
	base := path.Base(dir)
	if base == "." || base == ".." || base == "/" || !token.IsIdentifier(base) {
		return ""
	}
	return base
}

// openAPIConfigFile is an mcpgen.yaml that wraps an OpenAPI document:
//
//	version: 1
//	generate: {package: petsmcp, dir: petsmcp, profile: [inline-refs]}
//	server: {name: pets, version: 1.0.0}          # optional: info.title/version otherwise
//	openapi:
//	  file: petstore.yaml                          # relative to this file
//	  include: {tags: [...], paths: [...], methods: [...], operations: [...]}
//	  exclude: {...}
//	  maxToolNameLength: 64
//	  maxSchemaBytes: 65536                        # per tool schema; -1: no budget
//	surface: {defaultToolsets: [...], outputSchemas: false, glossary: {...}}   # see Surface
type openAPIConfigFile struct {
	Version  int `yaml:"version"`
	Generate struct {
		Package string    `yaml:"package"`
		Dir     string    `yaml:"dir"`
		Profile yaml.Node `yaml:"profile"`
		Types   yaml.Node `yaml:"types"`
	} `yaml:"generate"`
	Server struct {
		Name         string `yaml:"name"`
		Title        string `yaml:"title"`
		Version      string `yaml:"version"`
		Description  string `yaml:"description"`
		Instructions string `yaml:"instructions"`
		Website      string `yaml:"website"`
	} `yaml:"server"`
	OpenAPI struct {
		File              string          `yaml:"file"`
		Include           openAPISelector `yaml:"include"`
		Exclude           openAPISelector `yaml:"exclude"`
		MaxToolNameLength int             `yaml:"maxToolNameLength"`
		MaxSchemaBytes    int             `yaml:"maxSchemaBytes"`
	} `yaml:"openapi"`
	Surface struct {
		DefaultToolsets []string  `yaml:"defaultToolsets"`
		OutputSchemas   *bool     `yaml:"outputSchemas"`
		FieldSelection  bool      `yaml:"fieldSelection"`
		Glossary        yaml.Node `yaml:"glossary"`
	} `yaml:"surface"`
}

type openAPISelector struct {
	Tags       []string `yaml:"tags"`
	Paths      []string `yaml:"paths"`
	Methods    []string `yaml:"methods"`
	Operations []string `yaml:"operations"`
}

func loadOpenAPIConfig(fsys fs.FS, file string, data []byte) (*API, error) {
	var root yaml.Node
	at := func(n *yaml.Node, format string, args ...any) Diagnostics {
		p := Pos{File: file, Line: 1, Col: 1}
		if n != nil && n.Line > 0 {
			p.Line, p.Col = n.Line, n.Column
		}
		return Diagnostics{{Pos: p, Message: fmt.Sprintf(format, args...)}}
	}
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, at(nil, "invalid yaml: %v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var top, surface *yaml.Node
	if len(root.Content) > 0 {
		top = root.Content[0]
	}
	if top != nil && top.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(top.Content); i += 2 {
			switch k := top.Content[i]; k.Value {
			case "surface":
				surface = k
			case "version", "generate", "server", "openapi":
			default:
				return nil, at(k, "%s: not supported beside openapi: (the tools come from the OpenAPI document)", k.Value)
			}
		}
	}
	var c openAPIConfigFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		d := Diagnostic{Pos: Pos{File: file, Line: 1, Col: 1}, Message: "invalid config: " + strings.TrimPrefix(err.Error(), "yaml: ")}
		if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil && m[1] != "" {
			fmt.Sscan(m[1], &d.Pos.Line)
			d.Message = "invalid config: " + m[2]
		}
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			if m := yamlLineRE.FindStringSubmatch("yaml: " + te.Errors[0]); m != nil && m[1] != "" {
				fmt.Sscan(m[1], &d.Pos.Line)
				d.Message = "invalid config: " + m[2]
			}
		}
		d.Message = unknownFieldRE.ReplaceAllString(d.Message, `unknown key "$1"`)
		return nil, Diagnostics{d}
	}
	if c.Version != 1 {
		return nil, at(top, "version must be 1")
	}
	if c.OpenAPI.File == "" {
		return nil, at(top, "openapi: file is required (the OpenAPI or Swagger document, relative to this file)")
	}
	docPath := path.Join(path.Dir(file), c.OpenAPI.File)
	if !fs.ValidPath(docPath) {
		return nil, at(top, "openapi: file %q must be a relative path inside the project", c.OpenAPI.File)
	}
	cfg := OpenAPIConfig{
		Include:           OpenAPISelector(c.OpenAPI.Include),
		Exclude:           OpenAPISelector(c.OpenAPI.Exclude),
		MaxToolNameLength: c.OpenAPI.MaxToolNameLength,
		MaxSchemaBytes:    c.OpenAPI.MaxSchemaBytes,
		ServerName:        c.Server.Name,
		ServerVersion:     c.Server.Version,
		Generate:          GenerateConfig{Package: c.Generate.Package, Dir: path.Clean(orDot(c.Generate.Dir))},
	}
	api, err := LoadOpenAPI(fsys, docPath, cfg)
	if err != nil {
		return nil, err
	}
	api.File = file
	if c.Generate.Types.Kind != 0 {
		l := &loader{file: file}
		api.Generate.StringFormats = l.formatTypes(&c.Generate.Types)
		if len(l.diags) > 0 {
			return nil, l.diags
		}
	}
	if c.Generate.Profile.Kind != 0 {
		l := &loader{file: file}
		api.Generate.Profiles = l.profiles(&c.Generate.Profile)
		if len(l.diags) > 0 {
			return nil, l.diags
		}
	}
	if c.Server.Title != "" {
		api.Server.Title = c.Server.Title
	}
	if c.Server.Description != "" {
		api.Server.Description = c.Server.Description
	}
	api.Server.Instructions = c.Server.Instructions
	api.Server.WebsiteURL = c.Server.Website
	if surface != nil {
		api.Surface = Surface{
			DefaultToolsets:   c.Surface.DefaultToolsets,
			OmitOutputSchemas: c.Surface.OutputSchemas != nil && !*c.Surface.OutputSchemas,
			FieldSelection:    c.Surface.FieldSelection,
			Pos:               Pos{File: file, Line: surface.Line, Col: surface.Column},
		}
		if msg := unknownToolsets(api, c.Surface.DefaultToolsets); msg != "" {
			return nil, at(surface, "surface: %s", msg)
		}
		if c.Surface.Glossary.Kind != 0 {
			l := &loader{file: file}
			api.Surface.Glossary = l.glossary(&c.Surface.Glossary, "surface: glossary")
			if len(l.diags) > 0 {
				return nil, l.diags
			}
		}
	}
	if api.Generate.Package == "" {
		api.Generate.Package = defaultPackage(file, api.Generate.Dir)
	}
	if api.Generate.Package != "" && !token.IsIdentifier(api.Generate.Package) {
		return nil, at(top, "generate: package %q is not a valid Go identifier", api.Generate.Package)
	}
	return api, nil
}

// unknownFieldRE rewrites yaml.v3's Go-flavoured unknown-field message.
var unknownFieldRE = regexp.MustCompile(`field (\S+) not found in type .*`)

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

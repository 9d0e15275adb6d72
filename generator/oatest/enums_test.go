package oatest

import (
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// spelledEnums is an OpenAPI document whose integer enums write their
// values as 1.0 and 1e1, beside a number enum with a fraction and a
// nullable string enum that lists null. Go constants are named and valued
// by the integers (Level1, not Level1.0, which does not compile), and no
// value of another type becomes a constant or a case: null is not "".
const spelledEnums = `{
  "openapi": "3.0.3",
  "info": {"title": "enums", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "components": {"schemas": {
    "Level": {"type": "integer", "enum": [1.0, 2.0]},
    "Ratio": {"type": "number", "enum": [1.5, 2]},
    "Color": {"type": "string", "nullable": true, "enum": ["red", null]}
  }},
  "paths": {
    "/pick": {
      "post": {
        "operationId": "pick",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object",
          "properties": {
            "level": {"$ref": "#/components/schemas/Level"},
            "ratio": {"$ref": "#/components/schemas/Ratio"},
            "color": {"$ref": "#/components/schemas/Color"},
            "count": {"type": "integer", "enum": [1.0, 2.0, 1e1]}
          }
        }}}},
        "responses": {"200": {"description": "ok"}}
      }
    }
  }
}`

// spelledEnumsYAML is the same in mcpgen.yaml, whose loader reads the
// numbers through YAML.
const spelledEnumsYAML = `version: 1
generate: {package: mcpserver}
server: {name: enums, version: 0.1.0}
types:
  Level: {type: integer, enum: [1.0, 2.0]}
  Ratio: {type: number, enum: [1.5, 2]}
  Color: {type: string, nullable: true, enum: [red, null]}
tools:
  pick:
    input:
      properties:
        level: {$ref: Level}
        ratio: {$ref: Ratio}
        color: {$ref: Color}
        count: {type: integer, enum: [1.0, 2.0, 1e1]}
`

const spelledEnumsTest = `package mcpserver

import "testing"

func TestSpelledEnums(t *testing.T) {
	if Level1 != 1 || Level2 != 2 || PickInputCount1 != 1 || PickInputCount10 != 10 || ColorRed != "red" {
		t.Errorf("constants: %d %d %d %d %q", Level1, Level2, PickInputCount1, PickInputCount10, ColorRed)
	}
	for doc, valid := range map[string]bool{
		` + "`" + `{"level": 1, "ratio": 1.5, "color": "red", "count": 10}` + "`" + `: true,
		` + "`" + `{"level": 2, "ratio": 2, "color": null, "count": 1}` + "`" + `:    true,
		` + "`" + `{"ratio": 2.0}` + "`" + `: true,
		` + "`" + `{"level": 3}` + "`" + `:   false,
		` + "`" + `{"level": 0}` + "`" + `:   false,
		` + "`" + `{"ratio": 1}` + "`" + `:   false,
		` + "`" + `{"ratio": 3}` + "`" + `:   false,
		` + "`" + `{"count": 3}` + "`" + `:   false,
		` + "`" + `{"color": ""}` + "`" + `:  false,
	} {
		var in PickInput
		if err := in.UnmarshalJSON([]byte(doc)); (err == nil) != valid {
			t.Errorf("%s: err %v, want valid=%v", doc, err, valid)
		}
	}
}
`

// TestSpelledEnumsVet generates both documents, vets the code and checks
// the constants and the verdicts of the validators.
func TestSpelledEnumsVet(t *testing.T) {
	load := map[string]func() (*spec.API, error){
		"openapi": func() (*spec.API, error) {
			return spec.LoadOpenAPI(fstest.MapFS{"api.json": {Data: []byte(spelledEnums)}}, "api.json", spec.OpenAPIConfig{})
		},
		"mcpgen.yaml": func() (*spec.API, error) {
			return spec.Load(fstest.MapFS{"mcpgen.yaml": {Data: []byte(spelledEnumsYAML)}}, "mcpgen.yaml")
		},
	}
	for name, load := range load {
		t.Run(name, func(t *testing.T) {
			api, err := load()
			if err != nil {
				t.Fatal(err)
			}
			files, err := generator.Generate(api, generator.Options{})
			if err != nil {
				t.Fatal(err)
			}
			dir := writeModule(t, files, map[string]string{"enum_test.go": spelledEnumsTest})
			runGo(t, dir, "vet", "./...")
			runGo(t, dir, "test", "./...")
		})
	}
}

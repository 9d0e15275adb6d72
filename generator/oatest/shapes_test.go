package oatest

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpgen-dev/mcpgen/generator"
	"github.com/mcpgen-dev/mcpgen/spec"
)

// generateInline generates the code of an OpenAPI document given as text.
func generateInline(t *testing.T, doc string) []generator.File {
	t.Helper()
	api, err := spec.LoadOpenAPI(fstest.MapFS{"api.json": {Data: []byte(doc)}}, "api.json", spec.OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := generator.Generate(api, generator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// foreignKeywords is a Swagger 2.0 document whose schemas carry keywords of
// another type's vocabulary, as Slack's does (chat.scheduleMessage's
// post_at is an integer with a pattern). JSON Schema ignores them; the
// generated validators must too, and still vet. The schema is the request
// body's, which generated code validates, and the response's, which passes
// through to the upstream checker.
const foreignKeywords = `{
  "swagger": "2.0",
  "info": {"title": "shapes", "version": "1"},
  "host": "example.com",
  "paths": {
    "/schedule": {
      "post": {
        "operationId": "schedule",
        "parameters": [
          {"name": "when", "in": "query", "type": "integer", "pattern": "^\\d{10}$"},
          {"name": "flag", "in": "query", "type": "boolean", "maxLength": 3},
          {"name": "body", "in": "body", "schema": {"$ref": "#/definitions/Slot"}}
        ],
        "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Slot"}}}
      }
    }
  },
  "definitions": {
    "Slot": {
      "type": "object",
      "required": ["post_at", "id"],
      "properties": {
        "post_at": {"type": "integer", "pattern": "^\\d{10}$"},
        "ratio": {"type": "number", "minLength": 1, "format": "email"},
        "done": {"type": "boolean", "minimum": 1},
        "id": {"type": "string", "pattern": "^[Q][A-Z0-9]{8,}$"}
      }
    }
  }
}`

// nullableElements is an OpenAPI 3.0 document with arrays and maps of
// nullable values, as Superset's has (an array of nullable integers, of
// nullable objects): the elements must be pointers to hold null.
const nullableElements = `{
  "openapi": "3.0.3",
  "info": {"title": "nulls", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "paths": {
    "/chart": {
      "post": {
        "operationId": "chart",
        "requestBody": {"content": {"application/json": {"schema": {
          "type": "object",
          "properties": {
            "ids": {"type": "array", "items": {"type": "integer", "nullable": true}},
            "steps": {"type": "array", "items": {"$ref": "#/components/schemas/Step"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string", "nullable": true}},
            "extra": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number", "nullable": true}}
          }
        }}}},
        "responses": {"200": {"description": "ok"}}
      }
    }
  },
  "components": {"schemas": {"Step": {"type": "object", "nullable": true, "properties": {"op": {"type": "string"}}}}}
}`

// TestNullableElementsVet generates the document and vets it.
func TestNullableElementsVet(t *testing.T) {
	files := generateInline(t, nullableElements)
	var types string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "mcpgen_types_gen.go") {
			types = string(f.Data)
		}
	}
	for _, want := range []string{"[]*int64", "[]*Step", "map[string]*string", "map[string]*float64"} {
		if !strings.Contains(types, want) {
			t.Errorf("types lack %s", want)
		}
	}
	runGo(t, writeModule(t, files, nil), "vet", "./...")
}

// clientOperation is an OpenAPI 3.0 document with operations named client
// and do: the generated Upstream has a field, and UpstreamClient an
// embedded *upstream.Client, named Client, whose method Do it calls.
const clientOperation = `{
  "openapi": "3.0.3",
  "info": {"title": "client", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "paths": {
    "/client": {"get": {"operationId": "client", "responses": {"200": {"description": "ok",
      "content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}}},
    "/do": {"get": {"operationId": "do", "responses": {"200": {"description": "ok"}}}}
  }
}`

// TestClientOperationVet generates the document and vets it: the
// operation client becomes the method Client2.
func TestClientOperationVet(t *testing.T) {
	files := generateInline(t, clientOperation)
	for _, f := range files {
		if strings.HasSuffix(f.Path, "mcpgen_handler_gen.go") && !strings.Contains(string(f.Data), "\tClient2(ctx context.Context") {
			t.Errorf("the operation client is not the method Client2:\n%s", f.Data)
		}
	}
	runGo(t, writeModule(t, files, nil), "vet", "./...")
}

// unionShapes is an OpenAPI 3.0 document with the shapes of Discord's and
// OpenAI's that did not compile: a discriminated oneOf with an inline
// variant no mapping selects, a oneOf variant that is a named const (a Go
// alias of json.RawMessage, without methods), and a nullable integer with
// a default (a pointer to int64, not int).
const unionShapes = `{
  "openapi": "3.0.3",
  "info": {"title": "unions", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "paths": {
    "/search": {
      "post": {
        "operationId": "search",
        "requestBody": {"content": {"application/json": {"schema": {
          "type": "object",
          "properties": {
            "filter": {"$ref": "#/components/schemas/Filter"},
            "kind": {"oneOf": [{"$ref": "#/components/schemas/Four"}, {"type": "string"}]},
            "n": {"type": "integer", "nullable": true, "default": 1}
          }
        }}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
          "type": "object", "properties": {"kind": {"oneOf": [{"$ref": "#/components/schemas/Four"}, {"type": "string"}]}}
        }}}}}
      }
    }
  },
  "components": {"schemas": {
    "Cmp": {"type": "object", "properties": {"type": {"type": "string"}, "key": {"type": "string"}}},
    "Filter": {"oneOf": [{"$ref": "#/components/schemas/Cmp"}, {"type": "object", "properties": {"type": {"type": "string"}}}],
      "discriminator": {"propertyName": "type", "mapping": {"cmp": "#/components/schemas/Cmp"}}},
    "Four": {"description": "Always 4.", "enum": [4]}
  }}
}`

// TestUnionShapesVet generates the document and vets it.
func TestUnionShapesVet(t *testing.T) {
	files := generateInline(t, unionShapes)
	runGo(t, writeModule(t, files, nil), "vet", "./...")
}

// TestForeignKeywordsVet generates the document and vets it, and checks
// that the string's own pattern is still enforced.
func TestForeignKeywordsVet(t *testing.T) {
	files := generateInline(t, foreignKeywords)
	var validate string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "mcpgen_validate_gen.go") {
			validate = string(f.Data)
		}
	}
	if !strings.Contains(validate, `wire.MsgPattern("^[Q][A-Z0-9]{8,}$")`) {
		t.Errorf("the string pattern is not checked:\n%s", validate)
	}
	runGo(t, writeModule(t, files, nil), "vet", "./...")
}

// oddNames is an OpenAPI 3.0 document whose property names cannot stand in
// a json struct tag (spaces, commas, backquotes, quotes), as ReadMe's
// schema-types example has ("password (minLength: 5, maxLength: 20)").
const oddNames = `{
  "openapi": "3.0.3",
  "info": {"title": "names", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "paths": {
    "/odd": {
      "post": {
        "operationId": "odd",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object",
          "required": ["a b"],
          "properties": {
            "a b": {"type": "string"},
            "c, d": {"type": "integer"},
            "e` + "`" + `f": {"type": "boolean"},
            "g\"h": {"type": "string"}
          }
        }}}},
        "responses": {"200": {"description": "ok"}}
      }
    }
  }
}`

// TestOddPropertyNamesVet generates the document and vets it, and checks
// that the names still reach the wire through the generated decoder, which
// reports the exact name of a missing property.
func TestOddPropertyNamesVet(t *testing.T) {
	files := generateInline(t, oddNames)
	for _, f := range files {
		if strings.HasSuffix(f.Path, "mcpgen_types_gen.go") && !strings.Contains(string(f.Data), `// JSON name: "c, d".`) {
			t.Errorf("the field of \"c, d\" does not say its JSON name:\n%s", f.Data)
		}
	}
	dir := writeModule(t, files, map[string]string{"odd_test.go": oddNamesTest})
	runGo(t, dir, "vet", "./...")
	runGo(t, dir, "test", "./...")
}

const oddNamesTest = `package mcpserver

import (
	"strings"
	"testing"
)

func TestOddNamesRoundTrip(t *testing.T) {
	var in OddInput
	err := in.UnmarshalJSON([]byte(` + "`" + `{"c, d": 3}` + "`" + `))
	if err == nil || !strings.Contains(err.Error(), "/a b: is required") {
		t.Fatalf("missing \"a b\": %v", err)
	}
	if err := in.UnmarshalJSON([]byte(` + "`" + `{"a b": "x", "c, d": 3, "g\"h": "y"}` + "`" + `)); err != nil {
		t.Fatal(err)
	}
	out, _ := in.MarshalJSON()
	if got, want := string(out), ` + "`" + `{"a b":"x","c, d":3,"g\"h":"y"}` + "`" + `; got != want {
		t.Errorf("encoded %s, want %s", got, want)
	}
}
`

// repeatedEnums is an OpenAPI 3.0 document whose enums repeat values and mix
// types, as ReadMe's schema-enums example does.
const repeatedEnums = `{
  "openapi": "3.0.3",
  "info": {"title": "enums", "version": "1"},
  "servers": [{"url": "https://example.com"}],
  "paths": {
    "/pick": {
      "post": {
        "operationId": "pick",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object",
          "properties": {
            "status": {"type": "string", "enum": ["", "", "available", "available"]},
            "level": {"type": "number", "enum": ["", 0, 0.0, 2, 2]},
            "count": {"type": "integer", "enum": [1, 1, 3]}
          }
        }}}},
        "responses": {"200": {"description": "ok"}}
      }
    }
  }
}`

// TestRepeatedEnumValuesVet generates the document, vets it and checks the
// verdicts: repeated values are one case, and a value of another type never
// matches.
func TestRepeatedEnumValuesVet(t *testing.T) {
	files := generateInline(t, repeatedEnums)
	dir := writeModule(t, files, map[string]string{"enum_test.go": repeatedEnumsTest})
	runGo(t, dir, "vet", "./...")
	runGo(t, dir, "test", "./...")
}

const repeatedEnumsTest = `package mcpserver

import "testing"

func TestEnumVerdicts(t *testing.T) {
	for doc, valid := range map[string]bool{
		` + "`" + `{"status": "available", "level": 0, "count": 1}` + "`" + `: true,
		` + "`" + `{"status": "", "level": 2, "count": 3}` + "`" + `:        true,
		` + "`" + `{"status": "sold"}` + "`" + `:                          false,
		` + "`" + `{"level": 1}` + "`" + `:                                false,
		` + "`" + `{"count": 2}` + "`" + `:                                false,
	} {
		var in PickInput
		if err := in.UnmarshalJSON([]byte(doc)); (err == nil) != valid {
			t.Errorf("%s: err %v, want valid=%v", doc, err, valid)
		}
	}
}
`

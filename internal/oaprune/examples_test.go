package oaprune

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

const scimDoc = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /Groups:
    get:
      operationId: listGroups
      parameters:
        - name: filter
          in: query
          schema: {type: string}
          example: {"$ref": "https://api.example.com/scim/v2/Users/1"}
      responses:
        200:
          description: groups
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Group'}
              examples:
                default: {$ref: '#/components/examples/group'}
                plain: {value: {id: "1"}}
    post:
      operationId: createGroup
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Group'}
            examples:
              only: {$ref: '#/components/examples/group'}
      responses:
        201:
          description: made
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Group'}
              example: {members: [{value: "1", "$ref": "https://api.example.com/scim/v2/Users/1"}]}
components:
  examples:
    group:
      value: {id: "1", members: [{"$ref": "https://api.example.com/scim/v2/Users/1"}]}
    plain:
      value: {id: "1"}
    local: {$ref: '#/components/examples/plain'}
  schemas:
    Group:
      type: object
      default: {example: "kept: data, not a keyword"}
      properties:
        id: {type: string}
        example: {type: string, example: "kept: a property named example"}
        members:
          type: array
          items: {type: object}
          examples: [[{"$ref": "https://api.example.com/scim/v2/Users/1"}]]
`

func TestWithoutExternalExampleRefs(t *testing.T) {
	doc := mustDecode(t, []byte(scimDoc))
	before, _ := json.Marshal(doc)
	out, dropped := WithoutExternalExampleRefs(doc)
	want := []string{
		"/components/examples/group",
		"/components/schemas/Group/properties/members/examples",
		"/paths/~1Groups/get/parameters/0/example",
		"/paths/~1Groups/get/responses/200/content/application~1json/examples/default",
		"/paths/~1Groups/post/requestBody/content/application~1json/examples/only",
		"/paths/~1Groups/post/responses/201/content/application~1json/example",
	}
	if !slices.Equal(dropped, want) {
		t.Errorf("dropped\n%q\nwant\n%q", dropped, want)
	}
	if after, _ := json.Marshal(doc); string(after) != string(before) {
		t.Error("the input document changed")
	}
	if n := externalRefs(out); n != 0 {
		t.Errorf("%d external $refs left", n)
	}
	// What holds no external $ref stays: the other example of the map,
	// an example referring locally, the property named "example", and
	// a default (data, not an example keyword).
	get := out["paths"].(map[string]any)["/Groups"].(map[string]any)["get"].(map[string]any)
	media := get["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)
	if ex := media["examples"].(map[string]any); !reflect.DeepEqual(keys(ex), []string{"plain"}) {
		t.Errorf("response examples %v, want plain only", keys(ex))
	}
	if _, ok := out["components"].(map[string]any)["examples"].(map[string]any)["local"]; !ok {
		t.Error("the example with a local $ref was dropped")
	}
	group := out["components"].(map[string]any)["schemas"].(map[string]any)["Group"].(map[string]any)
	if _, ok := group["properties"].(map[string]any)["example"]; !ok {
		t.Error("the property named example was dropped")
	}
	if _, ok := group["default"]; !ok {
		t.Error("the default was dropped")
	}
	// Pruned afterwards, the document is closed: no reference points at
	// an example that was left out.
	pruned, err := Prune(out, []string{"listGroups", "createGroup"})
	if err != nil {
		t.Fatal(err)
	}
	checkClosed(t, pruned)
	// Nothing to leave out: the same document back.
	if again, d := WithoutExternalExampleRefs(out); len(d) != 0 || !reflect.DeepEqual(again, out) {
		t.Errorf("second pass dropped %q", d)
	}
}

// externalRefs counts the "$ref" members of v that are not "#/" references,
// outside enum, default and const values.
func externalRefs(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok && !(len(r) > 1 && r[:2] == "#/") {
			n++
		}
		for k, x := range v {
			if k != "default" && k != "enum" && k != "const" {
				n += externalRefs(x)
			}
		}
	case []any:
		for _, x := range v {
			n += externalRefs(x)
		}
	}
	return n
}

// GitHub's SCIM examples are why this exists: none is left in the mock's
// copy, and every operation still prunes to a closed document.
func TestWithoutExternalExampleRefsGitHub(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	f := filepath.Join("..", "..", "..", "shared", "openapi", "github", "api.github.com-1.1.4.json")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Skipf("no document: %v", err)
	}
	doc := mustDecode(t, data)
	if externalRefs(doc) == 0 {
		t.Fatal("the document has no external $ref: nothing to test")
	}
	out, dropped := WithoutExternalExampleRefs(doc)
	if n := externalRefs(out); n != 0 {
		t.Errorf("%d external $refs left", n)
	}
	if len(dropped) == 0 {
		t.Error("nothing dropped")
	}
	var ops []string
	for p, item := range out["paths"].(map[string]any) {
		for m := range item.(map[string]any) {
			if isMethod(m) {
				ops = append(ops, m+" "+p)
			}
		}
	}
	pruned, err := Prune(out, ops)
	if err != nil {
		t.Fatal(err)
	}
	checkClosed(t, pruned)
	t.Logf("left out %d examples: %q", len(dropped), dropped)
}

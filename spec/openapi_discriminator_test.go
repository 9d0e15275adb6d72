package spec

import (
	"os"
	"reflect"
	"testing"
	"testing/fstest"
)

// A discriminator without a mapping selects each variant by the value its
// own schema fixes for the property (a one-value enum or a const, also
// through allOf), and by its type name only when it fixes none. OpenAI
// discriminates its chat messages by role this way; selecting them by type
// name made every real message ({"role": "user"}) unselectable.
func TestOpenAPIDiscriminatorInfersFromConst(t *testing.T) {
	doc, err := os.ReadFile("../e2e/openapi/testdata/discriminator-const-api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	api, err := LoadOpenAPI(fstest.MapFS{"api.yaml": {Data: doc}}, "api.yaml", OpenAPIConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var d *Discriminator
	for _, nt := range api.Types {
		if nt.Name == "Message" {
			d = nt.Schema.Discriminator
		}
	}
	if d == nil {
		t.Fatal("no discriminator on Message")
	}
	want := []DiscriminatorCase{{Value: "user", Type: "UserMessage"}, {Value: "tool", Type: "ToolMessage"}, {Value: "Note", Type: "Note"}}
	if !reflect.DeepEqual(d.Mapping, want) {
		t.Errorf("mapping %v, want %v", d.Mapping, want)
	}
}

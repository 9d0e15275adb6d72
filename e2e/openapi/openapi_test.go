package openapi

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// callEveryTool calls each tool of c once with arguments made from its
// input schema, and checks that prism accepted the request (logged no
// violation) and that tools with an output schema (a JSON 2xx response)
// returned structuredContent. Operations whose document lists no 2xx
// response get the documented error from the mock; for them an upstream
// error result is expected, but never an argument error. It returns the
// tool names it called, sorted.
func callEveryTool(t *testing.T, c *mcpClient, p *prism) []string {
	t.Helper()
	var names []string
	for _, tl := range c.tools() {
		names = append(names, tl.Name)
		args := sample(tl.InputSchema)
		p.settle()
		before, received := len(p.violations()), strings.Count(p.log.String(), "Request received")
		res := c.callTool(tl.Name, args)
		p.settle()
		if strings.Count(p.log.String(), "Request received") == received {
			t.Errorf("%s %s: no request reached prism: %s", tl.Name, mustJSON(args), res.text())
			continue
		}
		if v := p.violations(); len(v) > before {
			t.Errorf("%s %s: prism rejected the request:\n%s", tl.Name, mustJSON(args), strings.Join(v[before:], "\n"))
			continue
		}
		switch {
		case tl.OutputSchema != nil && res.IsError:
			t.Errorf("%s %s: isError: %s", tl.Name, mustJSON(args), res.text())
		case tl.OutputSchema != nil && (len(res.StructuredContent) == 0 || !json.Valid(res.StructuredContent)):
			t.Errorf("%s: output schema but no structuredContent: %s", tl.Name, res.text())
		case res.IsError && !strings.Contains(res.text(), "upstream API answered"):
			t.Errorf("%s %s: not an upstream answer: %s", tl.Name, mustJSON(args), res.text())
		}
	}
	slices.Sort(names)
	return names
}

// petstoreTools are the 19 operations of both petstore documents (the 2.0
// one has createUsersWithArrayInput besides the list variant).
var petstoreTools = []string{
	"addPet", "createUser", "createUsersWithListInput", "deleteOrder", "deletePet",
	"deleteUser", "findPetsByStatus", "findPetsByTags", "getInventory", "getOrderById",
	"getPetById", "getUserByName", "loginUser", "logoutUser", "placeOrder",
	"updatePet", "updatePetWithForm", "updateUser", "uploadFile",
}

func TestPetstoreOpenAPI30AgainstPrism(t *testing.T) {
	needE2E(t)
	t.Parallel()
	doc := "testdata/swagger-petstore-openapi-3.0.yaml"
	bin := buildServer(t, doc)
	p := startPrism(t, doc)
	c := startServer(t, bin, p.URL, petstoreCredentials()...)
	got := callEveryTool(t, c, p)
	if !slices.Equal(got, petstoreTools) {
		t.Errorf("tools %q, want %q", got, petstoreTools)
	}
	checkOctetStreamUpload(t, bin)
}

func TestPetstoreSwagger20AgainstPrism(t *testing.T) {
	needE2E(t)
	t.Parallel()
	doc := "testdata/petstore-swagger-2.0.json"
	bin := buildServer(t, doc)
	p := startPrism(t, doc)
	c := startServer(t, bin, p.URL, petstoreCredentials()...)
	got := callEveryTool(t, c, p)
	want := append(slices.Clone(petstoreTools), "createUsersWithArrayInput")
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("tools %q, want %q", got, want)
	}
	checkMultipartUpload(t, bin)
}

// petstoreCredentials are the environment of a petstore server: both of
// the document's schemes (Prism checks that one is present, not its value).
func petstoreCredentials() []string {
	return []string{"MCPGEN_API_KEY_API_KEY=special-key", "MCPGEN_PETSTORE_AUTH_TOKEN=oauth-token"}
}

// ordersCredentials is the environment of an orders-rest-mcp acting with
// bearer token.
func ordersCredentials(token string) []string {
	return []string{"MCPGEN_BEARERAUTH_TOKEN=" + token}
}

package generator

// undeclaredRequiredBehaviour runs in the openapi_required
// golden case: a name that required lists and properties do not declare is
// required all the same, any value when nothing constrains it, the type
// additionalProperties gives otherwise.
const undeclaredRequiredBehaviour = `package openapirequired

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestUndeclaredRequiredAccepts(t *testing.T) {
	for _, in := range []string{
		` + "`" + `{"enabled":true,"reason":"any"}` + "`" + `,
		` + "`" + `{"enabled":false,"reason":{"why":[1,2]},"limits":{"unit":"req","daily":10,"hourly":2}}` + "`" + `,
	} {
		var v SetFlagsInput
		if err := v.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestUndeclaredRequiredMissing(t *testing.T) {
	var v SetFlagsInput
	err := v.UnmarshalJSON([]byte(` + "`" + `{"enabled":true,"limits":{"unit":"req","daily":"ten"}}` + "`" + `))
	wantPointers(t, err,
		"/limits/daily", // additionalProperties: an integer
		"/reason",       // required, undeclared
	)
	err = v.UnmarshalJSON([]byte(` + "`" + `{"enabled":true,"reason":null,"limits":{"unit":"req"}}` + "`" + `))
	wantPointers(t, err, "/limits/daily")
}
`

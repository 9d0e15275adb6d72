package generator

// unevaluatedBehaviour runs in the unevaluated golden case: a member only
// subschemas name is admitted where a passing subschema evaluates it, and
// held to unevaluatedProperties elsewhere; decoding keeps it as JSON and
// encoding gives it back.
const unevaluatedBehaviour = `package unevaluated

import (
	"errors"
	"slices"
	"testing"

	"github.com/mcpgen-dev/mcpgen/runtime/wire"
)
` + problemsHelper + `
func TestUnevaluatedRoundTrip(t *testing.T) {
	const in = ` + "`" + `{"payment":{"amount":5,"method":"card","card":"1234123412341234"},"contact":{"name":"n","phone":"+1","ext":12,"x":"ab"},"labels":{"kind":"k","shade":"dark","color":"red"}}` + "`" + `
	var v PayInput
	if err := v.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if string(v.Payment.Card) != ` + "`" + `"1234123412341234"` + "`" + ` || v.Payment.Iban != nil {
		t.Errorf("payment %+v", v.Payment)
	}
	if string(v.Contact.Ext) != "12" || v.Contact.AdditionalProperties["x"] != "ab" {
		t.Errorf("contact %+v", v.Contact)
	}
	if got := string(v.AppendJSON(nil)); got != in {
		t.Errorf("encoded\n%s\nwant\n%s", got, in)
	}
}

func TestUnevaluatedVerdicts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		// then evaluates card; iban is evaluated by else only.
		{` + "`" + `{"payment":{"amount":1,"method":"card","card":"1234123412341234","iban":"x"}}` + "`" + `, []string{"/payment/iban"}},
		// else applies: card is not evaluated, iban is required.
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","card":"1234123412341234"}}` + "`" + `, []string{"/payment/iban", "/payment/card"}},
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"}}` + "`" + `, nil},
		// Both anyOf branches pass: both evaluate.
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"contact":{"email":"a@b","phone":"1","ext":2}}` + "`" + `, nil},
		// The second branch fails (ext is no integer, name absent): phone
		// and ext are unevaluated, and held to {type: string, maxLength: 4}.
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"contact":{"email":"a@b","phone":"12345","ext":"e"}}` + "`" + `, []string{"/contact/phone"}},
		// not never evaluates: secret is held to unevaluatedProperties
		// (and the not fails, as secret is present).
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"contact":{"email":"a@b","secret":"abcdef"}}` + "`" + `, []string{"/contact", "/contact/secret"}},
		// dependentSchemas evaluates shade only beside kind; allOf
		// evaluates color.
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"labels":{"shade":"dark","color":"red"}}` + "`" + `, []string{"/labels/shade"}},
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"labels":{"kind":"k","shade":"dark","other":1}}` + "`" + `, []string{"/labels/other"}},
		// The allOf branch evaluates from and to, not tz: its cousin
		// anyOf branch does, which the allOf branch cannot see.
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"window":{"from":"a","to":"b"}}` + "`" + `, nil},
		{` + "`" + `{"payment":{"amount":1,"method":"transfer","iban":"DE0012345678901"},"window":{"from":"a","tz":"UTC"}}` + "`" + `, []string{"/window/tz"}},
	} {
		var v PayInput
		err := v.UnmarshalJSON([]byte(c.in))
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: %v", c.in, err)
			}
			continue
		}
		wantPointers(t, err, c.want...)
	}
}

func TestUnevaluatedOutput(t *testing.T) {
	root := wire.Path{}
	var e wire.Errors
	validatePayment(&root, &Payment{Amount: 1, Method: PaymentMethodTransfer, Iban: []byte(` + "`" + `"DE0012345678901"` + "`" + `), Card: []byte(` + "`" + `"1"` + "`" + `)}, &e)
	wantPointers(t, e.Err(), "/card")
	e.Reset()
	validatePayment(&root, &Payment{Amount: 1, Method: PaymentMethodCard, Card: []byte(` + "`" + `"1234123412341234"` + "`" + `)}, &e)
	if err := e.Err(); err != nil {
		t.Errorf("a card payment: %v", err)
	}
}
`

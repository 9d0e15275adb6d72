package wire

import (
	"errors"
	"testing"
)

// decodeName is what a generated decoder does for {"name": string}, with
// the name required: syntax errors returned, violations collected.
func decodeName(d *Decoder, p *Path, v *string, e *Errors) error {
	if d.Peek() != KindObject {
		e.Add(p, MsgType("object", d.Peek()))
		return d.Skip()
	}
	if err := d.BeginObject(); err != nil {
		return err
	}
	seen := false
	for {
		key, ok, err := d.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if string(key) != "name" {
			c := p.Child(string(key))
			e.Add(&c, MsgUnknownProperty)
			if err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		seen = true
		if d.Peek() != KindString {
			c := p.Child("name")
			e.Add(&c, MsgType("string", d.Peek()))
			if err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		if *v, err = d.ReadString(); err != nil {
			return err
		}
	}
	if !seen {
		c := p.Child("name")
		e.Add(&c, MsgRequired)
	}
	return nil
}

func TestUnmarshaler(t *testing.T) {
	unmarshal := func(data string) (string, error) {
		var v string
		var u Unmarshaler
		err := u.Done(decodeName(u.Start([]byte(data)), u.Root(), &v, u.Errors()))
		return v, err
	}
	for _, c := range []struct {
		data       string
		want       string
		violations int  // 0: no ValidationError
		syntax     bool // a syntax error, alone
	}{
		{data: `{"name":"ada"}`, want: "ada"},
		{data: ` {"name":"ada"} `, want: "ada"},
		{data: `{"name":"ada"} x`, syntax: true},
		{data: `{"name":"ada"`, syntax: true},
		{data: `{"name":1,"x":2}`, violations: 2},
		{data: `{}`, violations: 1},
		{data: `[]`, violations: 1},
	} {
		got, err := unmarshal(c.data)
		var ve *ValidationError
		switch {
		case c.syntax:
			if err == nil || errors.As(err, &ve) {
				t.Errorf("%s: err = %v, want a syntax error", c.data, err)
			}
		case c.violations > 0:
			if !errors.As(err, &ve) || len(ve.Errors) != c.violations {
				t.Errorf("%s: err = %v, want %d violations", c.data, err, c.violations)
			}
		default:
			if err != nil || got != c.want {
				t.Errorf("%s: got %q, %v; want %q", c.data, got, err, c.want)
			}
		}
	}
}

// TestUnmarshalerStaysOnTheStack: the state of a decode costs nothing;
// a valid input with no strings to keep allocates nothing.
func TestUnmarshalerStaysOnTheStack(t *testing.T) {
	data := []byte(`{}`)
	allocs := testing.AllocsPerRun(100, func() {
		var u Unmarshaler
		d := u.Start(data)
		_ = u.Done(d.Skip())
	})
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

package wire

import (
	"errors"
	"testing"
)

func TestUnmarshaler(t *testing.T) {
	unmarshal := func(data string) (int64, error) {
		var v limits
		var u Unmarshaler
		err := u.Done(decodeLimits(u.Start([]byte(data)), u.Root(), &v, u.Errors()))
		return v.Limit, err
	}
	for _, c := range []struct {
		data       string
		want       int64
		violations int  // 0: no ValidationError
		syntax     bool // a syntax error, alone
	}{
		{data: `{"limit":5}`, want: 5},
		{data: ` {"limit":5} `, want: 5},
		{data: `{"limit":5} x`, syntax: true},
		{data: `{"limit":5`, syntax: true},
		{data: `{"limit":"5","x":2}`, violations: 2},
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
				t.Errorf("%s: got %d, %v; want %d", c.data, got, err, c.want)
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

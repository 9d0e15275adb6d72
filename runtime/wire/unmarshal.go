package wire

// Unmarshaler is the state of one generated UnmarshalJSON (or unmarshalX
// function of a code-first type): the Decoder over the document, the path
// of its root and the violations found. Its zero value is ready, and it
// lives on the caller's stack:
//
//	func (v *Order) UnmarshalJSON(data []byte) error {
//		var u wire.Unmarshaler
//		return u.Done(decodeOrder(u.Start(data), u.Root(), v, u.Errors()))
//	}
//
// Done returns a syntax error alone, and otherwise every violation of the
// schema together, as a *ValidationError: values of the wrong type,
// missing required and unknown properties, and the constraints of every
// value that has the right type (a value that is missing or of the wrong
// type is not checked further).
type Unmarshaler struct {
	d    Decoder
	root Path
	e    Errors
}

// Start makes the Decoder read data from its start and returns it.
func (u *Unmarshaler) Start(data []byte) *Decoder {
	u.d.Reset(data)
	return &u.d
}

// Root is the path of the document's root value.
func (u *Unmarshaler) Root() *Path { return &u.root }

// Errors collects the violations the decoder finds.
func (u *Unmarshaler) Errors() *Errors { return &u.e }

// Done takes what the generated decoder returned: its syntax error, or
// else a syntax error after the value (only whitespace may follow it), or
// else the violations collected, or nil.
func (u *Unmarshaler) Done(err error) error {
	if err != nil {
		return err
	}
	if err := u.d.End(); err != nil {
		return err
	}
	return u.e.Err()
}

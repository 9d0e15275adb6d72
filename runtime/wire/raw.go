package wire

// Readers of one JSON value already held as raw bytes (a json.RawMessage
// of a schema without a type), for the subschemas of its applicators that
// state one: each returns the value as that type, or the violation to
// report ("" when there is none). They are forgiving of the bytes only in
// the way a Decoder is: raw values reach them after decoding checked them.

// RawKind is the JSON kind of the raw value b (KindInvalid when b holds no
// value).
func RawKind(b []byte) JSONKind {
	var d Decoder
	d.Reset(b)
	return d.Peek()
}

// RawString reads the raw value b as a string.
func RawString(b []byte) (string, string) {
	var d Decoder
	d.Reset(b)
	if k := d.Peek(); k != KindString {
		return "", MsgType("string", k)
	}
	s, err := d.ReadString()
	if err != nil {
		return "", MsgType("string", KindInvalid)
	}
	return s, ""
}

// RawInt reads the raw value b as an integer (1.0 is one, as in JSON
// Schema).
func RawInt(b []byte) (int64, string) {
	var d Decoder
	d.Reset(b)
	if k := d.Peek(); k != KindNumber {
		return 0, MsgType("integer", k)
	}
	switch x, err := d.ReadInt(); err {
	case nil:
		return x, ""
	case ErrNotInteger:
		return 0, MsgNotInteger
	case ErrOutOfRange:
		return 0, MsgOutOfRange
	}
	return 0, MsgType("integer", KindInvalid)
}

// RawFloat reads the raw value b as a number.
func RawFloat(b []byte) (float64, string) {
	var d Decoder
	d.Reset(b)
	if k := d.Peek(); k != KindNumber {
		return 0, MsgType("number", k)
	}
	switch x, err := d.ReadFloat(); err {
	case nil:
		return x, ""
	case ErrOutOfRange:
		return 0, MsgOutOfRange
	}
	return 0, MsgType("number", KindInvalid)
}

// RawBool reads the raw value b as a boolean.
func RawBool(b []byte) (bool, string) {
	var d Decoder
	d.Reset(b)
	if k := d.Peek(); k != KindBool {
		return false, MsgType("boolean", k)
	}
	x, err := d.ReadBool()
	if err != nil {
		return false, MsgType("boolean", KindInvalid)
	}
	return x, ""
}

// RawOfKind reports the violation of the raw value b against the schema
// type want ("null", "array" or "object"), whose kind is k ("" when b is
// of that kind).
func RawOfKind(b []byte, want string, k JSONKind) string {
	if got := RawKind(b); got != k {
		return MsgType(want, got)
	}
	return ""
}

package golang

import (
	"fmt"
	"strings"

	. "github.com/dave/jennifer/jen"

	"github.com/mcpgen-dev/mcpgen/spec"
)

// The Go types of string formats. A spec-defined string of format
// date-time is a time.Time, of format date a runtime.Date, and one with
// contentEncoding base64 (OpenAPI's format: byte) a []byte: the types a
// handler computes with, instead of strings it would have to parse, with
// parsers that accept exactly what the validators do (time.Parse refuses
// a lower-case "t" and a leap second, which RFC 3339 allows). They are
// scalars of kind kString with a goT, as the same types of code-first
// types are: JSON holds the string, decodeConverted turns it into the Go
// value and canonical turns it back.
//
// generate.types: strings (spec.GenerateConfig.StringFormats) keeps them
// strings, as mcpgen generated them before.

const (
	timeType  = "time.Time"
	dateType  = runtimePkg + ".Date"
	bytesType = "[]byte"
)

// formatType is the Go type a spec-defined scalar schema gets for its
// format or content encoding, or "" when it stays a string: not a string,
// an enum (a declared type of constants), or plain strings asked for.
func (l *lowerer) formatType(s *spec.Schema) string {
	if l.plainFormats || l.m.api.Generate.StringFormats || shapeOf(s) != kString || s.Enum != nil {
		return ""
	}
	switch {
	case s.Format == "date-time":
		return timeType
	case s.Format == "date":
		return dateType
	case s.ContentEncoding == "base64":
		return bytesType
	}
	return ""
}

// isDate reports whether a scalar node holds a runtime.Date (a full-date
// string in JSON).
func (n *node) isDate() bool { return n.goT == dateType }

// isBytes reports whether a scalar node holds a []byte (a base64 string
// in JSON). Like a slice, it is never a pointer: nil is its "no value".
func (n *node) isBytes() bool { return n.goT == bytesType }

// parsed is the statements that parse the string t, read and checked
// already, into tt, a value of a format type, and run set to store it.
// A string that is not base64 is a violation, reported at path, and
// leaves the target alone. It is nil for other types.
func parsed(r *node, path Code, set []Code) []Code {
	switch {
	case r.isTime():
		// tt is parsed already: the parse is the date-time check
		// (dateTimeCheck); a violation leaves it the zero time.
		return set
	case r.isDate():
		return append([]Code{List(Id("tt"), Id("_")).Op(":=").Add(rt("ParseDate")).Call(Id("t"))}, set...)
	case r.isBytes():
		// contentEncoding is only an annotation to JSON Schema, but a
		// string that is not base64 has no bytes to give the handler.
		return []Code{If(List(Id("tt"), Id("ok")).Op(":=").Add(wire("ParseBase64")).Call(Id("t")), Id("ok")).Block(set...).
			Else().Block(addErr(path, wire("MsgBase64")))}
	}
	return nil
}

// dateTimeCheck is the date-time check of the string x read for a
// time.Time, which parses it into tt as it checks it: ParseDateTime
// accepts exactly what IsDateTime does, a lower-case t or z and a leap
// second included (which time.Parse would refuse), so the message is the
// format check's.
func (m *validateEmitter) dateTimeCheck(x *Statement, path Code) []Code {
	return []Code{
		Var().Id("ok").Bool(),
		If(List(Id("tt"), Id("ok")).Op("=").Add(wire("ParseDateTime")).Call(x), Op("!").Id("ok")).Block(
			addErr(path, m.formatMessage("date-time"))),
	}
}

// comparableType reports whether values of a scalar node may be compared
// with == for uniqueItems: not a []byte, and not a time.Time, whose ==
// also compares locations (the same instant at two offsets is one JSON
// value to uniqueItems only after encoding).
func (n *node) comparableType() bool { return !n.isBytes() && !n.isTime() }

// operand is x ready for a selector: *v.Day.String() would call String
// on v.Day, so a dereference is parenthesised.
func operand(x *Statement) *Statement {
	if strings.HasPrefix(fmt.Sprintf("%#v", x), "*") {
		return Parens(x)
	}
	return x
}

// formatAlias lowers a named string type with a format type (goT): a Go
// alias of that type, `type Timestamp = time.Time`, so that a named
// date-time is the same time.Time as an inline one. An alias rather than
// a defined type (`type Timestamp time.Time`): a defined type would drop
// the methods of time.Time and runtime.Date (Format, Before, String, ...)
// and need a conversion wherever a named and an inline value meet. The
// value is checked where it is used, as an inline one is.
func (l *lowerer) formatAlias(nt *spec.NamedType, name string, preclaimed bool, goT string) *node {
	if !preclaimed {
		name = l.claim(name, nt.Pos)
	}
	s := nt.Schema
	n := &node{kind: kString, name: name, schema: s, pos: nt.Pos, goT: goT}
	n.doc = docOf(name, "", s)
	if n.doc[0] == "" {
		n.doc[0] = fmt.Sprintf("%s is the %q type of the spec.", name, nt.Name)
	}
	if s.Pattern != "" {
		l.pattern(name, s.Pattern)
	}
	l.constraintPatterns(name, s)
	l.named[nt.Name] = n
	l.m.nodes = append(l.m.nodes, n)
	return n
}

package spec

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// A list of types (type: [string, integer]) accepts a value of any of
// them. [X] is X, and [X, "null"] a nullable X, as before. A list of
// several other types leaves Type unset (KindAny) and lists them in
// Types: the value's Go type is json.RawMessage, as for any value, and
// each type-specific keyword applies only to values of its type, as JSON
// Schema says (minLength on [string, integer] constrains the strings).
// The keywords of objects and arrays would need a Go type for the members
// or items, which a raw value does not have: they are refused beside a
// list, where oneOf (a Go type per variant) says the same thing.

// allKinds are the types a list may name, in the order MsgType lists them.
var allKinds = []Kind{KindString, KindInteger, KindNumber, KindBoolean, KindObject, KindArray, KindNull}

// typeList parses the list n of the type keyword into s.
func (l *loader) typeList(n *yaml.Node, ctx string, s *Schema) {
	if len(n.Content) == 0 {
		l.errorf(n, ctx, "type must not be an empty list")
		return
	}
	var kinds []Kind
	for _, c := range n.Content {
		if isNull(c) && c.Value != "" {
			l.errorf(c, ctx, "type %s is the YAML null: write \"null\"", c.Value)
			continue
		}
		t, ok := l.str(c, ctx+": type")
		if !ok {
			continue
		}
		switch {
		case !slices.Contains(allKinds, Kind(t)):
			l.errorf(c, ctx, "type %q is not one of object, string, integer, number, boolean, array, null", t)
		case slices.Contains(kinds, Kind(t)):
			l.errorf(c, ctx, "type lists %q more than once", t)
		default:
			kinds = append(kinds, Kind(t))
		}
	}
	others := slices.DeleteFunc(slices.Clone(kinds), func(k Kind) bool { return k == KindNull })
	switch {
	case len(kinds) == 0:
	case len(kinds) == 1:
		s.Type = kinds[0]
	case len(others) == 1:
		s.Type, s.Nullable = others[0], true
	default:
		s.Types = kinds
	}
}

// typeListChecks reports the keywords a schema with a list of types
// cannot carry: those of objects and arrays, and nullable (write "null"
// in the list).
func (l *loader) typeListChecks(info *schemaInfo) {
	s := info.s
	if len(s.Types) == 0 {
		return
	}
	for k, key := range info.keys {
		kinds, ok := keywordKinds[k]
		switch {
		case k == "nullable":
			l.errorf(key, info.ctx, "nullable beside a list of types: list \"null\" among the types instead")
		case !ok:
		case slices.Contains(kinds, KindObject) || slices.Contains(kinds, KindArray):
			l.errorf(key, info.ctx, "keyword %q is not supported beside a list of types: the value is kept as JSON (json.RawMessage), whose members and items have no Go type to check (use oneOf, with a Go type per variant)", k)
		case !slices.ContainsFunc(kinds, func(t Kind) bool { return s.Lists(t) }):
			l.errorf(key, info.ctx, "keyword %q applies to none of the types %s", k, s.TypeNames())
		}
	}
}

// Lists reports whether a value of type t is of one of s's Types (an
// integer is a number).
func (s *Schema) Lists(t Kind) bool {
	return slices.Contains(s.Types, t) || t == KindInteger && slices.Contains(s.Types, KindNumber)
}

// TypeNames is s's list of types as MsgType words them: "string or
// integer".
func (s *Schema) TypeNames() string {
	var names []string
	for _, t := range s.Types {
		names = append(names, string(t))
	}
	return strings.Join(names, " or ")
}

// typeListValue is the violation of a value of kind k (jsonKind) against
// s's list of types, "" when there is none or s has no list.
func typeListValue(s *Schema, k Kind) string {
	if len(s.Types) == 0 || s.Lists(k) {
		return ""
	}
	return fmt.Sprintf("is not of type %s", s.TypeNames())
}

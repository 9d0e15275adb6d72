package spec

import (
	"net/url"
	"strings"
)

// $id on named types. A spec is one document, so an $id does not start a
// new document: it is another name for the named type it sits on, and
// "$ref" with the same URI (relative or absolute, compared as written, a
// trailing empty fragment "#" ignored) refers to that type as $ref: Name
// does. The $id is not published: the type is published under $defs like
// any other, and an $id there would make it a resource of its own against
// which the "#/$defs/..." references inside it no longer resolve.

// schemaID parses the $id of info's schema.
func (l *loader) schemaID(info *schemaInfo) {
	n, ok := info.vals["$id"]
	if !ok {
		return
	}
	id, ok := l.str(n, info.ctx+": $id")
	if !ok {
		return
	}
	id = strings.TrimSuffix(id, "#")
	u, err := url.Parse(id)
	switch {
	case id == "":
		l.errorf(n, info.ctx, "$id must not be empty")
	case err != nil:
		l.errorf(n, info.ctx, "$id %q is not a URI reference: %v", id, err)
	case u.Fragment != "" || strings.Contains(id, "#"):
		l.errorf(n, info.ctx, "$id %q must not have a fragment (name a place in a type with $anchor)", id)
	default:
		info.s.ID = id
	}
}

// checkIDs holds $id to named types (roots), unique, and resolves each
// "$ref" that names one.
func (l *loader) checkIDs(api *API, roots map[*Schema]bool) {
	ids := map[string]string{}
	for _, nt := range api.Types {
		id := nt.Schema.ID
		if id == "" {
			continue
		}
		if other, dup := ids[id]; dup {
			info := l.infoOf(nt.Schema)
			l.errorf(info.vals["$id"], info.ctx, "$id %q is already the $id of type %q", id, other)
			continue
		}
		ids[id] = nt.Name
	}
	for _, info := range l.infos {
		if info.s.ID != "" && !roots[info.s] {
			l.errorf(info.vals["$id"], info.ctx, "$id belongs on a named type (under types): a spec is one document, whose named types are its only resources")
		}
		if name, ok := ids[info.s.Ref]; ok && l.types[info.s.Ref] == nil {
			// an $id spelled as a type name ($ref: list)
			info.s.Ref = name
		}
		if info.idRef == "" {
			continue
		}
		if name, ok := ids[strings.TrimSuffix(info.idRef, "#")]; ok {
			info.s.Ref = name
		} else {
			l.errorf(info.vals["$ref"], info.ctx, "$ref %q must be a type name, \"#/types/Name\", \"#anchor\" or the $id of a type", info.idRef)
		}
	}
}

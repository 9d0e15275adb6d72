package spec

import (
	"go/token"
	"strings"
)

// goCompanions may sit beside go: the Go type gives the shape, the spec may
// still document it.
var goCompanions = []string{"go", "title", "description"}

// SplitGoType splits a go: reference into its import path and type name:
// "github.com/acme/orders.Order" is ("github.com/acme/orders", "Order");
// "Order", a type of the package generated into, is ("", "Order"). ok is
// false when the reference is malformed.
func SplitGoType(ref string) (importPath, name string, ok bool) {
	i := strings.LastIndex(ref, ".")
	importPath, name = ref[:max(i, 0)], ref[i+1:]
	if i == 0 || !token.IsIdentifier(name) || strings.ContainsAny(importPath, " \t\"\\") {
		return "", "", false
	}
	return importPath, name, true
}

// checkGoTypes reports go: keys where mcpgen cannot honour them: only a tool
// input or output or a named type may be code-first, the reference must
// name a type, and the Go type gives the shape, so shape keywords beside it
// would be ignored.
func (l *loader) checkGoTypes(api *API) {
	roots := map[*Schema]bool{}
	for _, nt := range api.Types {
		roots[nt.Schema] = true
	}
	for _, t := range api.Tools {
		roots[t.Input] = true
		if t.Output != nil {
			roots[t.Output] = true
		}
	}
	for _, info := range l.infos {
		at, ok := info.vals["go"]
		if !ok {
			continue
		}
		s := info.s
		s.GoPos = l.pos(info.keys["go"])
		switch {
		case !roots[s]:
			l.errorf(at, info.ctx, "go is only allowed on a tool input or output or a named type")
		case s.GoType == "" && at.ShortTag() == "!!str":
			l.errorf(at, info.ctx, "go must name a Go type (\"example.com/pkg.Type\", or \"Type\" in the generated package)")
		case s.GoType != "":
			if _, _, ok := SplitGoType(s.GoType); !ok {
				l.errorf(at, info.ctx, "go %q must be an import path and a type name (\"example.com/pkg.Type\"), or a type name of the generated package", s.GoType)
			}
		}
		for k, key := range info.keys {
			if !contains(goCompanions, k) {
				l.errorf(key, info.ctx, "keyword %q cannot be combined with go (the Go type gives the schema)", k)
			}
		}
	}
}

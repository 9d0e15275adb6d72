package difftest

// Tuples (prefixItems): instances take each position's schema by index,
// then the schema of the items after them (items or unevaluatedItems;
// false admits none).

// restItems is the schema of the items after the positions of s, and
// whether any may follow them.
func restItems(s map[string]any) (map[string]any, bool) {
	for _, k := range []string{"items", "unevaluatedItems"} {
		switch v := s[k].(type) {
		case bool:
			return nil, v
		case map[string]any:
			return v, true
		}
	}
	return nil, true
}

// validTuple returns an instance meant to satisfy tuple schema s: its
// minItems positions and maybe a few more (items after them when allowed).
func (g *instances) validTuple(s map[string]any, positions []any, depth int) []any {
	rest, open := restItems(s)
	n, _ := num(s, "minItems")
	k := int(n) + g.r.IntN(3)
	if depth > 4 {
		k = int(n)
	}
	if m, ok := num(s, "maxItems"); ok && k > int(m) {
		k = int(m)
	}
	if !open && k > len(positions) {
		k = len(positions)
	}
	out := []any{}
	for i := range k {
		if i < len(positions) && matchesNothing(positions[i]) {
			break // a position of false: the array ends before it
		}
		if i < len(positions) {
			p, _ := positions[i].(map[string]any)
			out = append(out, g.valid(p, depth+1))
		} else {
			out = append(out, g.valid(rest, depth+1))
		}
	}
	return out
}

// tupleVariants returns tuple instances near the edges of s: each
// position (and a rest item) replaced by its variants, one item too many
// and one too few.
func (g *instances) tupleVariants(s map[string]any, positions []any, depth int) []any {
	rest, _ := restItems(s)
	full := []any{}
	for _, p := range positions {
		pm, _ := p.(map[string]any)
		full = append(full, g.valid(pm, depth+1))
	}
	out := []any{full, full[:len(full)-1], append(append([]any{}, full...), g.valid(rest, depth+1)), append(append([]any{}, full...), "extra")}
	if depth >= 3 {
		return out
	}
	for i, p := range positions {
		pm, _ := p.(map[string]any)
		for _, v := range g.variants(pm, depth+1) {
			a := append([]any{}, full...)
			a[i] = v
			out = append(out, a)
		}
	}
	if rest != nil {
		for _, v := range g.variants(rest, depth+1) {
			out = append(out, append(append([]any{}, full...), v))
		}
	}
	return out
}

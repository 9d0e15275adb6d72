package spec

import "gopkg.in/yaml.v3"

// unevaluatedProperties over properties that only subschemas name.
//
// JSON Schema 2020-12 evaluates a member of an object where a subschema
// that applies to the object in place (allOf, anyOf, oneOf, if, then,
// else, dependentSchemas, never not) and passes names it in properties;
// unevaluatedProperties then constrains the members nothing evaluated.
// So on an object with unevaluatedProperties a constraint subschema may
// name a property the object does not declare ({allOf: [{properties:
// {bar: ...}}], unevaluatedProperties: false} admits bar). The loader
// declares such a name on the object as an implied property of any
// value: its Go field is an optional json.RawMessage, which keeps the
// member whatever the subschemas that name it say (they may disagree, and
// only the ones that pass count), and the generated validator tracks
// which of them the passing subschemas evaluated in a bitset, checking
// the others against unevaluatedProperties.

// maxImplied bounds the implied properties of one object: the generated
// validator tracks them in the bits of a uint64.
const maxImplied = 64

// undeclaredHint ends the diagnostic of a subschema that names a property
// its object does not declare.
const undeclaredHint = " (declare it there, or give that object unevaluatedProperties to let subschemas declare properties)"

// tracksEvaluation reports whether the object base carries
// unevaluatedProperties, under which its subschemas may name properties
// it does not declare.
func (l *loader) tracksEvaluation(base *Schema) bool {
	if base.Type != KindObject || base.PropertiesKeyword != "unevaluatedProperties" {
		return false
	}
	_, ok := l.infoOf(base).vals["unevaluatedProperties"]
	return ok
}

// subschemaProperty is the property name of the object base that a
// constraint subschema names at key: a declared one, or an implied one
// declared now when base tracks evaluation; nil otherwise.
func (l *loader) subschemaProperty(base *Schema, name string, key *yaml.Node) *Property {
	if p := baseProperty(base, name); p != nil {
		return p
	}
	if !l.tracksEvaluation(base) {
		return nil
	}
	pos := l.pos(key)
	p := &Property{Name: name, Schema: &Schema{Pos: pos}, Pos: pos, Implied: true}
	base.Properties = append(base.Properties, p)
	return p
}

// checkImplied holds an object's implied properties to what the
// generated validator can track: at most maxImplied of them, and an
// unevaluatedProperties that a member of any JSON value can be checked
// against (true, false, or a schema of a scalar type or of any value).
func (l *loader) checkImplied(info *schemaInfo) {
	s := info.s
	if s.Type == KindObject && len(s.Properties)+1 > maxImplied && refusesUnevaluated(s) {
		l.errorf(info.node, info.ctx, "a subschema with unevaluatedProperties: false on an object of %d properties: at most %d are supported (the generated validator tracks each member in a bit of a uint64)", len(s.Properties), maxImplied-1)
	}
	var implied []*Property
	for _, p := range s.Properties {
		if p.Implied {
			implied = append(implied, p)
		}
	}
	if len(implied) == 0 {
		return
	}
	key := info.keyNode("unevaluatedProperties")
	if len(implied) > maxImplied {
		l.errorf(key, info.ctx, "subschemas name %d properties the object does not declare; at most %d are supported beside unevaluatedProperties (declare the others on the object)", len(implied), maxImplied)
	}
	ap := s.AdditionalProperties
	if ap == nil || ap.IsAnyValue() {
		return
	}
	if ap.Ref == "" && len(ap.OneOf) == 0 && !ap.Nullable {
		switch ap.Type {
		case KindString, KindInteger, KindNumber, KindBoolean:
			return
		}
	}
	l.errorf(key, info.ctx, "unevaluatedProperties must be true, false, {} or an inline string, integer, number or boolean schema when subschemas name properties the object does not declare (%q): such a member is kept as JSON and checked against it only where no passing subschema evaluates it", implied[0].Name)
}

// innerUnevaluated parses the unevaluatedProperties of a constraint
// subschema of the object base: true or false. false refuses the members
// of the object that neither the subschema nor its passing subschemas
// evaluate (the object's own properties, and its cousins', are not the
// subschema's). true admits them, which changes nothing unless the object
// itself refuses members no subschema evaluates, whose Go type then has no
// place for them: refused there.
//
// additionalProperties: true or false there is read the same way when the
// subschema has no subschemas of its own (JSON Schema's
// additionalProperties sees only its sibling properties, unevaluated-
// Properties also what passing subschemas evaluate: without subschemas
// they are one); true, which evaluates every member, is the same with
// them too. It is published under the keyword it was written with.
func (l *loader) innerUnevaluated(info *schemaInfo, base *Schema) {
	key := "unevaluatedProperties"
	n, ok := info.vals[key]
	if ap, isAP := info.vals["additionalProperties"]; isAP {
		switch {
		case ok:
			l.errorf(info.keys[key], info.ctx, "unevaluatedProperties has no effect beside additionalProperties, which evaluates every member no property names: remove one of them")
			return
		case !isBoolNode(ap):
			l.errorf(ap, info.ctx, "additionalProperties in a constraint subschema must be true or false (the members are of the Go types the object gives them)")
			return
		case ap.Value == "false" && len(info.s.Subschemas()) > 0:
			l.errorf(info.keys["additionalProperties"], info.ctx, "additionalProperties: false in a constraint subschema with subschemas of its own is not supported (it sees only its sibling properties, where the generated check counts what passing subschemas evaluate too): write unevaluatedProperties: false, or move the subschemas out")
			return
		}
		key, n, ok = "additionalProperties", ap, true
		info.s.UnevaluatedKeyword = key
	}
	if !ok {
		return
	}
	accept, isBool := false, n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool"
	if isBool {
		isBool = n.Decode(&accept) == nil
	}
	if !isBool {
		l.errorf(n, info.ctx, "%s in a constraint subschema must be true or false (the members are of the Go types the object gives them)", key)
		return
	}
	if accept && l.tracksEvaluation(base) && !(base.AllowAdditional && (base.AdditionalProperties == nil || base.AdditionalProperties.IsAnyValue())) {
		l.errorf(n, info.ctx, "%s: true in a subschema of an object whose own unevaluatedProperties refuses or constrains the other members is not supported: the members it would admit have no place in the object's Go type", key)
		return
	}
	info.s.Unevaluated = &accept
}

// refusesUnevaluated reports whether a subschema of s, at any depth, has
// unevaluatedProperties: false.
func refusesUnevaluated(s *Schema) bool {
	for _, c := range s.Subschemas() {
		if c.Unevaluated != nil && !*c.Unevaluated || refusesUnevaluated(c) {
			return true
		}
	}
	return false
}

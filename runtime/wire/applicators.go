package wire

// Violations of the JSON Schema 2020-12 applicators.
const (
	// MsgAnyOf is reported when a value matches none of the subschemas
	// of anyOf.
	MsgAnyOf = "must match at least one of the anyOf schemas"
	// MsgNot is reported when a value matches the subschema of not.
	MsgNot = "must not match the not schema"
)

// MsgDependentRequired is reported at the pointer of a property that
// dependentRequired asks for because property is present.
func MsgDependentRequired(property string) string {
	return "is required when " + quote(property) + " is present"
}

// MsgPropertyNames is reported at a property whose name does not satisfy
// the propertyNames schema of its object.
const MsgPropertyNames = "property name must match the propertyNames schema"

// MsgMinContains is reported when fewer than n items of an array match
// its contains schema.
func MsgMinContains(n int) string {
	return "must contain at least " + plural(n, "item", "items") + " matching the contains schema"
}

// MsgMaxContains is reported when more than n items of an array match
// its contains schema.
func MsgMaxContains(n int) string {
	return "must contain at most " + plural(n, "item", "items") + " matching the contains schema"
}

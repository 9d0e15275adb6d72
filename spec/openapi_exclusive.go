package spec

import (
	"strconv"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/datamodel/low"
	lowbase "github.com/pb33f/libopenapi/datamodel/low/base"
)

// exclusiveBounds returns the schema's exclusiveMinimum and
// exclusiveMaximum as written. libopenapi reads both as numbers in a 3.1
// document, so the draft-04 form `maximum: 20, exclusiveMaximum: true`
// (valid under a jsonSchemaDialect of draft-04, and common in documents
// converted from 3.0) became exclusiveMaximum 0, a bound that refuses
// every valid value. A boolean in the document is read as a boolean here.
func exclusiveBounds(s *base.Schema) (min, max *base.DynamicValue[bool, float64]) {
	min, max = s.ExclusiveMinimum, s.ExclusiveMaximum
	lo := s.GoLow()
	if lo == nil {
		return min, max
	}
	return asWritten(min, lo.ExclusiveMinimum), asWritten(max, lo.ExclusiveMaximum)
}

func asWritten(v *base.DynamicValue[bool, float64], node low.NodeReference[*lowbase.SchemaDynamicValue[bool, float64]]) *base.DynamicValue[bool, float64] {
	n := node.ValueNode
	if v == nil || v.IsA() || n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return v
	}
	b, err := strconv.ParseBool(n.Value)
	if err != nil {
		return v
	}
	return &base.DynamicValue[bool, float64]{N: 0, A: b}
}

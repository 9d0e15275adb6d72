package upstream

import "testing"

// deepObjectBenchValue is a form body field as Stripe's documents shape
// them: an object with nested objects, an array of objects and a map.
var deepObjectBenchValue = []byte(`{"name":"Jenny Rosen","phone":"+15555550100",` +
	`"address":{"city":"Berlin","country":"DE","line1":"Unter den Linden 1","line2":"","postal_code":"10117","state":"BE"},` +
	`"items":[{"price":"price_1","quantity":2,"tax_rates":["txr_1","txr_2"]},{"price":"price_2","quantity":1,"metadata":{"order":"6735","note":"gift"}}],` +
	`"metadata":{"a":"1","b":"2","c":"3"}}`)

// BenchmarkArgCheckQuery measures a checked form field: a deepObject value
// (checked for empty members, then serialised) and a scalar one.
func BenchmarkArgCheckQuery(b *testing.B) {
	b.Run("deepObject", func(b *testing.B) {
		var q []byte
		b.ReportAllocs()
		for b.Loop() {
			var c ArgCheck
			q = c.Query(q[:0], "shipping", "shipping", "deepObject", true, deepObjectBenchValue)
			if c.Err() != nil {
				b.Fatal(c.Err())
			}
		}
	})
	b.Run("scalar", func(b *testing.B) {
		var q []byte
		b.ReportAllocs()
		for b.Loop() {
			var c ArgCheck
			q = c.Query(q[:0], "limit", "limit", "form", true, []byte(`10`))
		}
	})
}

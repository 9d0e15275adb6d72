package wire

// Ptr returns a pointer to a copy of v. Optional fields of generated types
// are pointers, so that an absent value (nil) differs from a zero one (0,
// "", false): Ptr fills one from a literal or a constant in one
// expression, as in Item{Note: wire.Ptr("gift")} or
// Query{Limit: wire.Ptr[int64](10)}.
func Ptr[T any](v T) *T { return &v }

package store

import "context"

// Ping reports whether the database answers: what a readiness check asks.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

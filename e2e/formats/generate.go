// Package formats is the spec of formats-mcp, the server e2e/ts/formats.test.mjs
// drives. The generated package ./formatsmcp is committed; regenerate it after
// editing mcpgen.yaml with `go generate ./e2e/formats`.
package formats

//go:generate go tool mcpgen generate -f mcpgen.yaml

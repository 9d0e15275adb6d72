// Package profiles is the spec of profiles-mcp, the server
// e2e/ts/profiles.test.mjs drives. The generated package ./profilesmcp is
// committed; regenerate it after editing mcpgen.yaml with
// `go generate ./e2e/profiles`.
package profiles

//go:generate go tool mcpgen generate -f mcpgen.yaml

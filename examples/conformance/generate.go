package main

// The generated package ./conformancemcp is committed; regenerate it after
// editing mcpgen.yaml with `go generate ./examples/conformance`.
//go:generate go tool mcpgen generate -f mcpgen.yaml

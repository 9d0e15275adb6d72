package orders

// The generated package ./ordersmcp is committed; regenerate it after editing
// mcpgen.yaml with `go generate ./examples/orders`.
//go:generate go tool mcpgen generate -f mcpgen.yaml

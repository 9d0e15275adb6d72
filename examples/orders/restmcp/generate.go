package restmcp

//go:generate go tool mcpgen generate -f mcpgen.yaml

// Package compattest checks mcpgen's compatibility promise for generated
// code (docs/compatibility.md): the runtime of this checkout compiles, and
// go vet accepts, the code that this checkout's mcpgen generates and the
// code that earlier releases generated, which scripts/compat-fixture.sh
// keeps under testdata/compat. It holds tests only.
package compattest

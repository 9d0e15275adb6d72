package difftest

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FuzzDifferential feeds arbitrary argument objects to the generated
// orders, constraints, oneof (unions, discriminated or not), tuples
// (prefixItems, unevaluated keywords), unevaluated (members only
// subschemas declare), typelists (a list of types on a raw value) and
// booleansubschemas (true and false where a subschema types a value)
// decoders and validators and to
// santhosh-tekuri/jsonschema; the
// verdicts must agree (or be a listed known difference). Seeds are the
// generated instances of TestDifferentialGolden.
func FuzzDifferential(f *testing.F) {
	all := goldenPackages(f)
	pkgs := map[string]pkgFiles{"orders": all["orders"], "constraints": all["constraints"], "oneof": all["oneof"], "tuples": all["tuples"], "unevaluated": all["unevaluated"],
		"typelists": all["typelists"], "booleansubschemas": all["booleansubschemas"]}
	var tls []tool
	for _, key := range []string{"orders", "constraints", "oneof", "tuples", "unevaluated", "typelists", "booleansubschemas"} {
		tls = append(tls, tools(pkgs[key], key)...)
	}
	compiled := make([]*jsonschema.Schema, len(tls))
	for i, tl := range tls {
		compiled[i] = compileSchema(f, tl.pkg+"/"+tl.name, tl.schema)
		for _, inst := range newInstances(tl.schema, 2).generate(200) {
			f.Add(uint8(i), inst)
		}
	}
	bins := buildServers(f, pkgs)
	servers := map[string]*server{}
	for key, bin := range bins {
		servers[key] = startServer(f, bin)
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		i := int(which) % len(tls)
		tl := tls[i]
		var obj map[string]json.RawMessage
		// JSON text is UTF-8 (RFC 8259 §8.1): the server rejects other
		// bytes before any validator runs, where encoding/json would
		// replace them.
		if !utf8.Valid(args) || !json.Valid(args) || json.Unmarshal(args, &obj) != nil || obj == nil {
			return // only argument objects reach the validators
		}
		want, err := oracle(compiled[i], args)
		if err != nil {
			return
		}
		got, msg := servers[tl.pkg].verdict(t, tl.name, args)
		if got != want && knownDifference(tl, args, got, msg) == "" {
			t.Errorf("%s/%s %s: generated says valid=%v (%s), santhosh-tekuri says %v", tl.pkg, tl.name, args, got, msg, want)
		}
	})
}

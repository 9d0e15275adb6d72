// Package validate compares mcpgen's generated argument decoder and
// validator with github.com/santhosh-tekuri/jsonschema/v6 and
// github.com/google/jsonschema-go on the same schemas (mcpgen's generated
// 2020-12 schemas) and the same valid and invalid inputs. Its test checks
// that all three reach the same verdict on every input; its benchmarks time
// them:
//
//	cd bench && go test -run . -bench . -benchmem ./validate
package validate

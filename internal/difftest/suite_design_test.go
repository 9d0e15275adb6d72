package difftest

// designDeparts are the suite tests where the generated validator gives the
// opposite of the suite's verdict by design, keyed "file: group / test",
// with the reason (each one is also said in docs/spec.md). The generated
// validator must give the opposite verdict: a change that brings it to the
// suite's is a change of documented behaviour, to be made on purpose.
var designDeparts = map[string]string{
	// format.json checks that format is only an annotation unless the
	// format-assertion vocabulary is in use; mcpgen asserts the formats it
	// supports, as the optional/format files and the clients' Ajv with
	// ajv-formats do (docs/spec.md, "Formats").
	"format.json: email format / invalid email string is only an annotation by default":         "format is an assertion in mcpgen",
	"format.json: date format / invalid date string is only an annotation by default":           "format is an assertion in mcpgen",
	"format.json: date-time format / invalid date-time string is only an annotation by default": "format is an assertion in mcpgen",
	"format.json: uri format / invalid uri string is only an annotation by default":             "format is an assertion in mcpgen",
	"format.json: uuid format / invalid uuid string is only an annotation by default":           "format is an assertion in mcpgen",

	// contentEncoding: base64 makes the value a Go []byte, decoded on the
	// way in: a value that is not base64 is refused, where 2020-12 makes
	// contentEncoding an annotation (docs/spec.md, "Go types of formats").
	"content.json: validation of binary string-encoding / an invalid base64 string (% is not a valid character); validates true":    "base64 is decoded into []byte",
	"content.json: validation of binary-encoded media type documents / an invalid base64 string that is valid JSON; validates true": "base64 is decoded into []byte",

	// An integer is a Go int64: a value beyond it is refused as out of
	// range rather than rounded (docs/spec.md, "Schema keywords").
	"optional/bignum.json: integer / a bignum is an integer":                                                                                       "integer is int64",
	"optional/bignum.json: integer / a negative bignum is an integer":                                                                              "integer is int64",
	"optional/float-overflow.json: all integers are multiples of 0.5, if overflow is handled / valid if optional overflow handling is implemented": "integer is int64",

	// pattern is RE2, where \s is [\t\n\f\r ]; ECMAScript's \s also has
	// \v, U+00A0, U+FEFF, the line and paragraph separators and the Space_Separator class.
	// The published pattern spells RE2's class out, so clients agree with
	// the server (docs/spec.md, "Schema keywords").
	"optional/ecmascript-regex.json: ECMA 262 \\s matches whitespace / Line tabulation matches":                                             "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\s matches whitespace / latin-1 non-breaking-space matches":                                  "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\s matches whitespace / zero-width whitespace matches":                                       "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\s matches whitespace / paragraph separator matches (line terminator)":                       "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\s matches whitespace / EM SPACE matches (Space_Separator)":                                  "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\S matches everything but whitespace / Line tabulation does not match":                       "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\S matches everything but whitespace / latin-1 non-breaking-space does not match":            "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\S matches everything but whitespace / zero-width whitespace does not match":                 "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\S matches everything but whitespace / paragraph separator does not match (line terminator)": "pattern is RE2",
	"optional/ecmascript-regex.json: ECMA 262 \\S matches everything but whitespace / EM SPACE does not match (Space_Separator)":            "pattern is RE2",
}

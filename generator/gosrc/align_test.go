package gosrc

import (
	"bytes"
	"testing"
	"text/tabwriter"
)

// tabwriterAligned is what go/printer's output stage makes of text: a
// text/tabwriter with its settings, then its trimmer.
func tabwriterAligned(text []byte) []byte {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 1, ' ', tabwriter.DiscardEmptyColumns|tabwriter.TabIndent)
	tw.Write(text)
	tw.Flush()
	var out []byte
	for i, line := range bytes.Split(buf.Bytes(), []byte("\n")) {
		if i > 0 {
			out = append(out, '\n')
		}
		line = bytes.TrimRight(bytes.ReplaceAll(line, []byte{0xff}, nil), " \t")
		out = append(out, line...)
	}
	return out
}

func TestAlignMatchesTabwriter(t *testing.T) {
	for _, text := range []string{
		"",
		"x",
		"a\vb\n",
		"\tName:\v\"n\",\n\tDescription:\v\"d\",\f\tCall: f,\n",
		"\tA\vstring\v\v`json:\"a\"`\n\tLonger\v*T\v\v`json:\"l\"`\n\t// Doc.\n\tC\tint\n",
		"\ta\v= 1\n\tbbb\v= \xff\t\xff2\n}",
		"\t\tk\vv\n\t\t\tdeeper\n\t\tkk\vv\n",
		"é\vx\nab\vy\n",
	} {
		if got, want := appendAligned(nil, []byte(text)), tabwriterAligned([]byte(text)); !bytes.Equal(got, want) {
			t.Errorf("appendAligned(%q) = %q, tabwriter: %q", text, got, want)
		}
	}
}

// FuzzAlign checks the aligner against text/tabwriter on text made of
// cells, line breaks, escapes and multi-byte runes.
func FuzzAlign(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 0, 5, 1, 2, 6, 3})
	f.Add([]byte{2, 2, 1, 3, 4, 2, 2, 1, 3, 4, 7, 1, 8, 1, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		var text []byte
		for _, b := range data {
			switch b % 10 {
			case 0:
				text = append(text, "word"...)
			case 1:
				text = append(text, 'x')
			case 2:
				text = append(text, '\t')
			case 3:
				text = append(text, '\v')
			case 4:
				text = append(text, '\n')
			case 5:
				text = append(text, '\f')
			case 6:
				text = append(text, "é"...)
			case 7:
				text = append(text, ' ')
			case 8:
				text = append(text, 0xff, '\t', 'e', 0xff) // an escaped tab
			case 9:
				text = append(text, "longer cell text"...)
			}
		}
		if got, want := appendAligned(nil, text), tabwriterAligned(text); !bytes.Equal(got, want) {
			t.Fatalf("appendAligned(%q) =\n%q\ntabwriter:\n%q", text, got, want)
		}
	})
}

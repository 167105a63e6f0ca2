package citations

import (
	"strings"
	"testing"
)

// FuzzRewriter: for any answer text and any split into two writes, the
// streamed text equals the text checked at once, and every marker left in
// it names one of the citations returned (numbered 1..k).
func FuzzRewriter(f *testing.F) {
	for _, s := range []string{
		"B [2], Add [1], again [2].",
		"x [9] y [1-3] `[4]` ```\n[5]\n``` [a.go:4] [b.go:99]",
		"[", "[1", "[1,", "[1-", " [0] ", "a[1] [1][2]", "[a.go:L4]", "``[1]``", "[a.go:[9]3]", "[1 [0]]",
	} {
		f.Add(s, len(s)/2)
	}
	f.Fuzz(func(t *testing.T, in string, cut int) {
		whole, cits, _ := Validate(in, registry(t), contentOf(files))
		if cut < 0 || cut > len(in) {
			cut = len(in) / 2
		}
		r := NewRewriter(registry(t), contentOf(files))
		streamed := r.Write(in[:cut]) + r.Write(in[cut:]) + r.Flush()
		if streamed != whole {
			t.Fatalf("streamed %q, whole %q", streamed, whole)
		}
		for i, c := range cits {
			if c.N != i+1 {
				t.Fatalf("citation %d numbered %d", i, c.N)
			}
		}
		if strings.Contains(in, "```") || strings.Contains(in, "`") {
			return // markers in code are left alone by design
		}
		for _, n := range markersIn(whole) {
			if n < 1 || n > len(cits) {
				t.Fatalf("marker [%d] left in %q (from %q) with %d citations", n, whole, in, len(cits))
			}
		}
		for i := 0; i < len(whole); i++ {
			if whole[i] != '[' || (i > 0 && isWordByte(whole[i-1])) {
				continue
			}
			if j := strings.IndexByte(whole[i:], ']'); j > 0 {
				if _, _, _, ok := parsePathRef(whole[i+1 : i+j]); ok {
					t.Fatalf("path reference %q left in %q (from %q)", whole[i:i+j+1], whole, in)
				}
			}
		}
	})
}

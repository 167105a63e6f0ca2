package chunk

import "testing"

// TestImplementationHeadersAreCpp: the files C++ libraries keep their
// out-of-line members in (.ipp, .tpp, .inl, .tcc, foo-inl.h) are outlined
// with the C and C++ rules, not indexed as prose.
func TestImplementationHeadersAreCpp(t *testing.T) {
	for p, want := range map[string]string{
		"include/mylib/details/widget-inl.h":  "c", // the C and C++ rules are one outliner
		"include/mylib/details/widget_impl.h": "c",
		"include/mylib/buffer.ipp":            "cpp",
		"include/mylib/buffer.tpp":            "cpp",
		"include/mylib/buffer.txx":            "cpp",
		"include/mylib/bits/buffer.tcc":       "cpp",
		"include/mylib/sink.inl":              "cpp",
		"src/registry.c++":                    "cpp",
		"src/registry.cppm":                   "cpp",
	} {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
		if outlineExtractors[Language(p)] == nil {
			t.Errorf("%s has no outline", p)
		}
	}
}

package words

import (
	"slices"
	"testing"
)

func TestScanKeepsTheWholeAndAddsParts(t *testing.T) {
	var got []string
	Scan([]byte("ServeHTTP(max_file_bytes) http.ResponseWriter é x"), func(_, _ int, term []byte) {
		got = append(got, string(term))
	})
	want := []string{"servehttp", "serve", "http", "max_file_bytes", "max", "file", "bytes",
		"http.responsewriter", "http", "responsewriter", "response", "writer", "é"} // "é" is two bytes; "x" is one, dropped
	if !slices.Equal(got, want) {
		t.Errorf("Scan = %q\nwant %q", got, want)
	}
}

func TestParts(t *testing.T) {
	for w, want := range map[string][]string{
		"parseHTTPVersion2": {"parse", "HTTP", "Version", "2"},
		"max_len":           {"max", "len"},
		"Ωmega_Δelta":       {"Ωmega", "Δelta"},
	} {
		var spans [8][2]int
		n := Parts([]byte(w), spans[:])
		var got []string
		for _, s := range spans[:n] {
			got = append(got, w[s[0]:s[1]])
		}
		if !slices.Equal(got, want) {
			t.Errorf("Parts(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestStem(t *testing.T) {
	for w, want := range map[string]string{"compares": "compar", "compared": "compar", "libraries": "librari", "max_len": "max_len", "go": "go"} {
		if got := string(Stem([]byte(w))); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestStopWordsHoldTheirStems(t *testing.T) {
	for _, w := range []string{"the", "does", "doe", "implemented", "implement", "doesn"} {
		if !IsStop(w) {
			t.Errorf("IsStop(%q) = false", w)
		}
	}
	if IsStop("parser") {
		t.Error("IsStop(parser) = true")
	}
}

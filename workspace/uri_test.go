package workspace

import (
	"strings"
	"testing"
)

// TestURIToPath converts the URIs that VS Code, Neovim and Helix send, on
// Linux and with Windows rules: drive letters in either case and with the
// colon escaped (VS Code), spaces and other escapes, UNC hosts.
func TestURIToPath(t *testing.T) {
	for _, tc := range []struct {
		uri     string
		windows bool
		want    string // "" when an error is expected
	}{
		{"file:///home/me/proj/a.go", false, "/home/me/proj/a.go"},
		{"file:///home/me/My%20Project/a%25b.go", false, "/home/me/My Project/a%b.go"},
		{"file:///home/me/caf%C3%A9/x.go", false, "/home/me/café/x.go"},
		{"file:///home/me/a/../b/./c.go", false, "/home/me/b/c.go"},
		{"file://localhost/etc/x", false, "/etc/x"},
		{"file:///C:/x", false, "/C:/x"}, // a valid Linux path, kept
		{"file://server/share/x", false, ""},
		{"file:///C:/Users/me/proj/a.go", true, `C:\Users\me\proj\a.go`},
		{"file:///c%3A/Users/me/My%20Project/a.go", true, `c:\Users\me\My Project\a.go`},
		{"file:///C:", true, `C:\`},
		{"file:///C:/", true, `C:\`},
		{"file:///C:/a/../b", true, `C:\b`},
		{"file://server/share/x%20y.go", true, `\\server\share\x y.go`},
		{"file://localhost/C:/x", true, `C:\x`},
		{"untitled:Untitled-1", false, ""},
		{"https://example.com/a.go", false, ""},
		{"file:relative", false, ""},
		{"file://%zz/x", false, ""},
	} {
		got, err := uriToPath(tc.uri, tc.windows)
		if tc.want == "" {
			if err == nil {
				t.Errorf("uriToPath(%q, windows=%v) = %q, want an error", tc.uri, tc.windows, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("uriToPath(%q, windows=%v) = %q, %v; want %q", tc.uri, tc.windows, got, err, tc.want)
		}
	}
}

// TestPathToURI converts paths to the URIs the server sends, and back.
func TestPathToURI(t *testing.T) {
	for _, tc := range []struct {
		path    string
		windows bool
		want    string
	}{
		{"/home/me/proj/a.go", false, "file:///home/me/proj/a.go"},
		{"/home/me/My Project/a%b#c?.go", false, "file:///home/me/My%20Project/a%25b%23c%3F.go"},
		{"/home/me/café/x.go", false, "file:///home/me/caf%C3%A9/x.go"},
		{`C:\Users\me\My Project\a.go`, true, "file:///C:/Users/me/My%20Project/a.go"},
		{`C:\`, true, "file:///C:/"},
		{`c:\x`, true, "file:///c:/x"},
		{`\\server\share\x y.go`, true, "file://server/share/x%20y.go"},
	} {
		got := pathToURI(tc.path, tc.windows)
		if got != tc.want {
			t.Errorf("pathToURI(%q, windows=%v) = %q, want %q", tc.path, tc.windows, got, tc.want)
			continue
		}
		back, err := uriToPath(got, tc.windows)
		if err != nil || back != tc.path {
			t.Errorf("uriToPath(pathToURI(%q)) = %q, %v: not the same path", tc.path, back, err)
		}
	}
}

// TestCanonURI: differently escaped spellings of one file are one key.
func TestCanonURI(t *testing.T) {
	a := CanonURI("file:///home/me/My%20Project/a.go")
	b := CanonURI("file:///home/me/My Project/./a.go")
	if a != b || !strings.HasPrefix(a, "file:///") {
		t.Errorf("CanonURI: %q and %q differ", a, b)
	}
	if got := CanonURI("untitled:Untitled-1"); got != "untitled:Untitled-1" {
		t.Errorf("CanonURI(untitled:) = %q", got)
	}
}

package workspace

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// File URIs and paths, for every front end: the language server's
// documents and Locations, the MCP server's roots, resources and citation
// URIs. The conversions are written here rather than taken from
// go.lsp.dev/uri (v0.3.0), because that package does not keep the rules
// on client input:
//   - URI.Filename panics on a URI that is not file: (an editor's
//     "untitled:" buffer); here that is an error and the request goes on.
//   - File takes a relative path, and a drive root shorter than four bytes
//     ("C:/"), as relative to the server's working directory, and expands
//     a leading "$GOROOT"; here a path is converted as it is.
//   - Filename strips the slash of "/C:/x" on every OS, so on Linux
//     file:///C:/x becomes the relative path "C:/x"; here only on Windows.
//   - Both drop the host of file://server/share/x; here it is a UNC path
//     on Windows and an error elsewhere.
//
// uriToPath and pathToURI take the OS as a flag so that the Windows rules
// are tested on every OS (uri_test.go); go.lsp.dev/uri decides by
// runtime.GOOS.

// URIPath converts a file URI to an absolute path of this OS; any other
// URI (untitled:, https:) is an error.
func URIPath(u string) (string, error) { return uriToPath(u, runtime.GOOS == "windows") }

// FileURI converts an absolute path of this OS to a file URI.
func FileURI(p string) string { return pathToURI(p, runtime.GOOS == "windows") }

// CanonURI normalises a file URI so that differently escaped spellings of
// one file are one key; any other URI is returned as it is.
func CanonURI(u string) string {
	if p, err := URIPath(u); err == nil {
		return FileURI(p)
	}
	return u
}

// uriToPath converts a file URI to a clean absolute path, with Windows
// rules when windows is set: "/C:/x" and "/c%3A/x" are C:\x and c:\x,
// file://host/share/x is \\host\share\x. Percent-escapes are decoded.
func uriToPath(u string, windows bool) (string, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", u, err)
	}
	if pu.Scheme != "file" {
		return "", fmt.Errorf("only file: URIs are supported, got %q", u)
	}
	p := pu.Path
	if p == "" {
		return "", fmt.Errorf("URI %q has no path", u)
	}
	host := pu.Host
	if host == "localhost" {
		host = ""
	}
	if !windows {
		if host != "" {
			return "", fmt.Errorf("URI %q names host %q: only local files are supported", u, host)
		}
		return path.Clean(p), nil
	}
	if host != "" { // UNC: \\host\share\x
		return `\\` + host + strings.ReplaceAll(path.Clean(p), "/", `\`), nil
	}
	if hasDrive(p[1:]) {
		p = p[1:]
	}
	p = path.Clean(p)
	if len(p) == 2 && hasDrive(p) {
		p += "/" // "C:" alone is the current directory of drive C
	}
	return strings.ReplaceAll(p, "/", `\`), nil
}

// pathToURI converts an absolute path to a file URI, with Windows rules
// when windows is set: C:\a b is file:///C:/a%20b, \\host\share\x is
// file://host/share/x. Characters that a URI path cannot hold are
// percent-escaped.
func pathToURI(p string, windows bool) string {
	if windows {
		p = strings.ReplaceAll(p, `\`, "/")
		if rest, ok := strings.CutPrefix(p, "//"); ok { // UNC
			host, share, _ := strings.Cut(rest, "/")
			return (&url.URL{Scheme: "file", Host: host, Path: "/" + share}).String()
		}
	} else {
		p = filepath.ToSlash(p)
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// hasDrive reports whether p starts with a drive letter and a colon ("C:").
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

package secret

import (
	"bytes"
	"path"
	"regexp"
	"strings"
)

// IsName reports whether the base name of p matches secretNames or
// p ends with one of secretPaths.
func IsName(p string) bool {
	base := path.Base(p)
	if secretExact[base] || secretExt[path.Ext(base)] {
		return true
	}
	for _, g := range secretGlobs {
		if g.matches(base) {
			return true
		}
	}
	for i, sp := range secretPaths {
		if p == sp || strings.HasSuffix(p, secretPathSuffixes[i]) {
			return true
		}
	}
	return false
}

// secretPathSuffixes are secretPaths with a leading "/": IsName runs on
// every file of every walk (the kernel's 78,000), so not concatenated
// there.
var secretPathSuffixes = func() []string {
	out := make([]string, len(secretPaths))
	for i, sp := range secretPaths {
		out[i] = "/" + sp
	}
	return out
}()

// secretNames split for speed: exact names, "*.ext" patterns, the rest.
var secretExact, secretExt, secretGlobs = func() (map[string]bool, map[string]bool, []nameGlob) {
	exact, ext := map[string]bool{}, map[string]bool{}
	var globs []nameGlob
	for _, p := range secretNames {
		switch {
		case !strings.ContainsAny(p, "*?["):
			exact[p] = true
		case strings.HasPrefix(p, "*.") && !strings.ContainsAny(p[2:], "*?[."):
			ext[p[1:]] = true
		default:
			globs = append(globs, newNameGlob(p))
		}
	}
	return exact, ext, globs
}()

// nameGlob is one glob of secretNames. One with a single '*' and no other
// wildcard ("id_rsa*", "*_accessKeys.csv", "service-account*.json") is a
// prefix and a suffix; any other is matched by path.Match.
type nameGlob struct {
	pattern        string
	prefix, suffix string
	simple         bool
}

func newNameGlob(p string) nameGlob {
	before, after, _ := strings.Cut(p, "*")
	simple := strings.Count(p, "*") == 1 && !strings.ContainsAny(p, "?[\\")
	return nameGlob{pattern: p, prefix: before, suffix: after, simple: simple}
}

func (g nameGlob) matches(base string) bool {
	if g.simple {
		return len(base) >= len(g.prefix)+len(g.suffix) && strings.HasPrefix(base, g.prefix) && strings.HasSuffix(base, g.suffix)
	}
	ok, _ := path.Match(g.pattern, base)
	return ok
}

// LooksLikePrivateKey reports whether a non-code file holds a private key
// (privateKeyBlocks, escapedKeyBlocks, a PuTTY key). Source files are not
// checked: test files embed sample keys on purpose (their bodies are still
// redacted when read).
func LooksLikePrivateKey(lang string, content []byte) bool {
	if lang != "text" && !strings.HasPrefix(lang, "yaml") && lang != "json" && lang != "toml" {
		return false
	}
	return len(privateKeyBlocks(content)) > 0 || len(escapedKeyBlocks(content)) > 0 || len(puttyBlocks(content)) > 0
}

// A private key block is a "-----BEGIN ... PRIVATE KEY-----" line (PGP's
// "PRIVATE KEY BLOCK-----" too), then lines of base64 (at least
// minKeyBody characters in all, each line at least 16 but the last, after
// optional indentation and headers such as "Proc-Type:" or "Version:"),
// then the "-----END" line. A page that shows the header with a
// placeholder ("-----BEGIN PRIVATE KEY-----\nXXXX\n..." on one line, or
// "..." as the body) is documentation, not a key.
const minKeyBody = 40

var (
	keyBegin = []byte("PRIVATE KEY")
	// A body row, as in the file or as Redact left it (a key stays
	// recognisable as one after redaction).
	base64Row = regexp.MustCompile(`^[ \t"']*(?:[A-Za-z0-9+/]{16,}={0,2}|\[redacted\]\*{6,}|\*{16,})[ \t"',\\n]*$`)
	// The last row of a body may be short, as may PGP's checksum ("=nX4g").
	shortRow  = regexp.MustCompile(`^[ \t"']*(?:=?[A-Za-z0-9+/]{1,15}={0,2}|\*{1,15})[ \t"',\\n]*$`)
	pemHeader = regexp.MustCompile(`^[ \t]*[A-Za-z-]+: .*$`)
)

// privateKeyBlocks returns the byte ranges [start, end) of the base64
// bodies of the private key blocks in content.
func privateKeyBlocks(content []byte) [][2]int {
	var out [][2]int
	from := 0
	for {
		i := bytes.Index(content[from:], keyBegin)
		if i < 0 {
			return out
		}
		i += from
		lineEnd := bytes.IndexByte(content[i:], '\n')
		if lineEnd < 0 {
			return out
		}
		lineStart := bytes.LastIndexByte(content[:i], '\n') + 1
		line := content[lineStart : i+lineEnd]
		from = i + lineEnd + 1
		rest := content[i+len(keyBegin) : i+lineEnd]
		if !bytes.Contains(line, []byte("-----BEGIN")) || !(bytes.HasPrefix(rest, []byte("-----")) || bytes.HasPrefix(rest, []byte(" BLOCK-----"))) {
			continue
		}
		bodyStart, pos, chars := from, from, 0
		ended, short := false, false
		for pos < len(content) {
			e := bytes.IndexByte(content[pos:], '\n')
			if e < 0 {
				e = len(content) - pos
			}
			row := bytes.TrimRight(content[pos:pos+e], "\r")
			switch {
			case bytes.Contains(row, []byte("-----END")):
				ended = true
			case base64Row.Match(row) && !short:
				chars += len(bytes.TrimSpace(row))
			case chars >= minKeyBody && shortRow.Match(row):
				chars += len(bytes.TrimSpace(row))
				short = true // only the END line may follow... or PGP's checksum
			case chars == 0 && (pemHeader.Match(row) || len(bytes.TrimSpace(row)) == 0):
				// "Proc-Type: 4,ENCRYPTED" headers and the blank line after
				// them: kept readable, so that the masked block is still a key
				bodyStart = pos + e + 1
			default:
				chars = -1
			}
			if ended || chars < 0 {
				break
			}
			pos += e + 1
		}
		if ended && chars >= minKeyBody {
			out = append(out, [2]int{bodyStart, pos})
			from = pos
		}
	}
}

// escapedBegin is a private key's BEGIN line inside a string, its line
// breaks written "\n" (a GCP service-account key's "private_key", a key
// in a .env value or a JSON config).
var (
	escapedBegin = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:\\r)?\\n`)
	escapedRow   = regexp.MustCompile(`^(?:[A-Za-z0-9+/]+={0,2}|=[A-Za-z0-9+/]{4}|\[redacted\]\**|\*+)$`)
)

// escapedKeyBlocks returns the byte ranges of the bodies of the private
// keys written on one line with "\n" escapes: from after the BEGIN line's
// "\n" to the "-----END". As with privateKeyBlocks, the body must be
// base64 (headers allowed), at least minKeyBody characters with one row
// of at least 16: "\nXXXX\nXXXX\n" is a placeholder.
func escapedKeyBlocks(content []byte) [][2]int {
	if !bytes.Contains(content, []byte(`PRIVATE KEY`)) {
		return nil
	}
	var out [][2]int
	for _, m := range escapedBegin.FindAllIndex(content, -1) {
		start := m[1]
		lineEnd := bytes.IndexByte(content[start:], '\n')
		if lineEnd < 0 {
			lineEnd = len(content) - start
		}
		end := bytes.Index(content[start:start+lineEnd], []byte("-----END"))
		if end < 0 {
			continue
		}
		chars, long := 0, false
		body := bytes.ReplaceAll(content[start:start+end], []byte(`\r`), nil)
		for _, row := range bytes.Split(body, []byte(`\n`)) {
			row = bytes.TrimSpace(row)
			switch {
			case len(row) == 0 || chars == 0 && pemHeader.Match(row):
			case escapedRow.Match(row):
				chars += len(row)
				long = long || len(row) >= 16
			default:
				chars = -1
			}
			if chars < 0 {
				break
			}
		}
		if long && chars >= minKeyBody {
			out = append(out, [2]int{start, start + end})
		}
	}
	return out
}

// puttyBlocks returns the byte ranges of the private lines of the PuTTY
// keys (.ppk) in content: the N lines after "Private-Lines: N".
func puttyBlocks(content []byte) [][2]int {
	if !bytes.HasPrefix(content, []byte("PuTTY-User-Key-File-")) {
		return nil
	}
	var out [][2]int
	marker := []byte("\nPrivate-Lines: ")
	for from := 0; ; {
		i := bytes.Index(content[from:], marker)
		if i < 0 {
			return out
		}
		i += from + len(marker)
		n := 0
		for i < len(content) && content[i] >= '0' && content[i] <= '9' && n < 1<<16 {
			n = n*10 + int(content[i]-'0')
			i++
		}
		start := bytes.IndexByte(content[i:], '\n')
		if start < 0 {
			return out
		}
		start += i + 1
		end := start
		for k := 0; k < n && end < len(content); k++ {
			e := bytes.IndexByte(content[end:], '\n')
			if e < 0 {
				end = len(content)
				break
			}
			end += e + 1
		}
		out = append(out, [2]int{start, end})
		from = end
	}
}

// Redact overwrites, in place, the secrets in content: the bodies of
// private key blocks (on lines, in strings, PuTTY's) and the
// credentialPatterns. It keeps every byte offset and line: each secret
// byte becomes '*', after a "[redacted]" prefix where it fits, so that
// lines, chunks and citations computed on the redacted text hold for the
// file on disk. It returns content.
func Redact(content []byte) []byte {
	if bytes.Contains(content, keyBegin) {
		for _, b := range privateKeyBlocks(content) {
			mask(content[b[0]:b[1]])
		}
		for _, b := range escapedKeyBlocks(content) {
			mask(content[b[0]:b[1]])
		}
	}
	for _, b := range puttyBlocks(content) {
		mask(content[b[0]:b[1]])
	}
	scanMarkers(content, false, func(line []byte, rules uint64) {
		for i := range credentialPatterns {
			if rules&(1<<i) == 0 {
				continue
			}
			cp := &credentialPatterns[i]
			for _, m := range cp.re().FindAllSubmatchIndex(line, -1) {
				if len(m) >= 4 && m[2] >= 0 && (cp.valid == nil || cp.valid(line[m[2]:m[3]])) {
					mask(line[m[2]:m[3]])
				}
			}
		}
	})
	return content
}

// The markers of credentialPatterns, found in one pass over a text: each
// marker is filed under its first two bytes, so that the scan looks at
// each byte once and compares markers only where two bytes agree. Most
// lines hold no marker and cost a table lookup per byte.
var (
	markerPair    [1 << 16]uint8 // first two bytes -> 1 + index in markerBuckets; 0: none
	markerBuckets [][]ruleMarker
)

type ruleMarker struct {
	text []byte
	rule int
}

func init() {
	if len(credentialPatterns) > 64 {
		panic("index: more than 64 credential rules: widen scanMarkers' rule set")
	}
	for i, cp := range credentialPatterns {
		for _, m := range cp.markers {
			if len(m) < 2 {
				panic("index: a credential marker needs two bytes: " + m)
			}
			k := uint16(m[0])<<8 | uint16(m[1])
			if markerPair[k] == 0 {
				if len(markerBuckets) == 255 {
					panic("index: more than 255 marker prefixes: widen markerPair")
				}
				markerBuckets = append(markerBuckets, nil)
				markerPair[k] = uint8(len(markerBuckets))
			}
			b := markerPair[k] - 1
			markerBuckets[b] = append(markerBuckets[b], ruleMarker{[]byte(m), i})
		}
	}
}

// scanMarkers calls visit with each line of content that holds a marker
// and the set of rules (bit i: credentialPatterns[i]) whose markers it
// holds. With first, it stops at the first such line.
func scanMarkers(content []byte, first bool, visit func(line []byte, rules uint64)) {
	start := 0
	var rules uint64
	n := len(content)
	for i := 0; i < n; i++ {
		c := content[i]
		if c == '\n' {
			if rules != 0 {
				visit(content[start:i], rules)
				if first {
					return
				}
				rules = 0
			}
			start = i + 1
			continue
		}
		if i+1 >= n {
			break
		}
		if b := markerPair[uint16(c)<<8|uint16(content[i+1])]; b != 0 {
			for _, m := range markerBuckets[b-1] {
				if bytes.HasPrefix(content[i:], m.text) {
					rules |= 1 << m.rule
				}
			}
		}
	}
	if rules != 0 {
		visit(content[start:], rules)
	}
}

// RedactString returns text with its secrets masked (see Redact), for
// text that did not come through the index (a model's answer, a log
// line).
func RedactString(text string) string {
	if !mayHoldSecret(text) {
		return text
	}
	return string(Redact([]byte(text)))
}

func mayHoldSecret(text string) bool {
	if strings.Contains(text, string(keyBegin)) || strings.HasPrefix(text, "PuTTY-User-Key-File-") {
		return true
	}
	found := false
	scanMarkers([]byte(text), true, func([]byte, uint64) { found = true })
	return found
}

// mask overwrites b, keeping line breaks, with "[redacted]" then '*'.
func mask(b []byte) {
	const label = "[redacted]"
	k := 0
	for i := range b {
		if b[i] == '\n' || b[i] == '\r' {
			k = 0
			continue
		}
		if b[i] == ' ' || b[i] == '\t' {
			continue // keep indentation
		}
		if k < len(label) && len(b)-i >= len(label)-k {
			b[i] = label[k]
		} else {
			b[i] = '*'
		}
		k++
	}
}

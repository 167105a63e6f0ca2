package index

import (
	"bytes"
	"path"
	"regexp"
	"strings"
)

// secretNames are the file names (gitignore-style globs on the base name)
// that never enter the index and are never read, whatever the ignore files
// say, whether the file is on disk, open in the editor, or reached
// through a symlink: environment files, private keys, certificates with
// keys, and credential stores. This list is documented in
// docs/secrets.md; keep them in step.
var secretNames = []string{
	".env", ".env.*", "*.env",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "*_rsa", "*_ed25519",
	".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", ".htpasswd", ".pgpass",
	"credentials", "credentials.json", "credentials.yml", "credentials.yaml",
	"secrets.json", "secrets.yml", "secrets.yaml", "*.tfstate", "*.tfvars",
	"kubeconfig", "*.kubeconfig",
}

// secretPaths are credential stores known by their folder as well as
// their name ("config" alone is too common a name).
var secretPaths = []string{".docker/config.json", ".kube/config"}

// isSecretName reports whether the base name of p matches secretNames or
// p ends with one of secretPaths.
func isSecretName(p string) bool {
	base := path.Base(p)
	if secretExact[base] || secretExt[path.Ext(base)] {
		return true
	}
	for _, pat := range secretGlobs {
		if ok, _ := path.Match(pat, base); ok {
			return true
		}
	}
	for _, sp := range secretPaths {
		if p == sp || strings.HasSuffix(p, "/"+sp) {
			return true
		}
	}
	return false
}

// secretNames split for speed: exact names, "*.ext" patterns, the rest.
var secretExact, secretExt, secretGlobs = func() (map[string]bool, map[string]bool, []string) {
	exact, ext := map[string]bool{}, map[string]bool{}
	var globs []string
	for _, p := range secretNames {
		switch {
		case !strings.ContainsAny(p, "*?["):
			exact[p] = true
		case strings.HasPrefix(p, "*.") && !strings.ContainsAny(p[2:], "*?[."):
			ext[p[1:]] = true
		default:
			globs = append(globs, p)
		}
	}
	return exact, ext, globs
}()

// looksLikePrivateKey reports whether a non-code file holds a private key
// (privateKeyBlocks). Source files are not checked: test files embed
// sample keys on purpose (their bodies are still redacted when read).
func looksLikePrivateKey(lang string, content []byte) bool {
	if lang != "text" && !strings.HasPrefix(lang, "yaml") && lang != "json" && lang != "toml" {
		return false
	}
	return len(privateKeyBlocks(content)) > 0
}

// A private key block is a "-----BEGIN ... PRIVATE KEY-----" line, then
// lines of base64 (at least minKeyBody characters in all, each line at
// least 16, after optional indentation and headers such as "Proc-Type:"),
// then the "-----END" line. A page that shows the header with a
// placeholder ("-----BEGIN PRIVATE KEY-----\nXXXX\n..." on one line, or
// "..." as the body) is documentation, not a key.
const minKeyBody = 40

var (
	keyBegin = []byte("PRIVATE KEY-----")
	// A body row, as in the file or as redact left it (a key stays
	// recognisable as one after redaction).
	base64Row = regexp.MustCompile(`^[ \t"']*(?:[A-Za-z0-9+/]{16,}={0,2}|\[redacted\]\*{6,}|\*{16,})[ \t"',\\n]*$`)
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
		if !bytes.Contains(line, []byte("-----BEGIN")) {
			continue
		}
		bodyStart, pos, chars := from, from, 0
		ended := false
		for pos < len(content) {
			e := bytes.IndexByte(content[pos:], '\n')
			if e < 0 {
				e = len(content) - pos
			}
			row := bytes.TrimRight(content[pos:pos+e], "\r")
			switch {
			case bytes.Contains(row, []byte("-----END")):
				ended = true
			case base64Row.Match(row):
				chars += len(bytes.TrimSpace(row))
			case chars == 0 && (pemHeader.Match(row) || len(bytes.TrimSpace(row)) == 0):
				// "Proc-Type: 4,ENCRYPTED" headers and the blank line after them
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

// credentialPatterns are well-known credentials inside ordinary files,
// each within one line; the first group of each is the secret part, the
// rest stays readable. A pattern runs only on the lines that hold one of
// its markers: most files hold none, and scanning for a marker is far
// cheaper than running the pattern over the file.
var credentialPatterns = []struct {
	markers []string
	re      *regexp.Regexp
}{
	// AWS access key ids (long-term and temporary) and secret keys.
	{[]string{"AKIA", "ASIA"}, regexp.MustCompile(`\b(?:AKIA|ASIA)([A-Z2-7]{16})\b`)},
	{[]string{"ws_secret_access_key", "WS_SECRET_ACCESS_KEY"}, regexp.MustCompile(`(?i)aws_secret_access_key["']?\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})`)},
	// .npmrc lines: "//registry/:_authToken=", "_auth=", "_password=".
	{[]string{"_auth", "_password"}, regexp.MustCompile(`^[ \t]*(?://\S*:)?_(?:authToken|auth|password)\s*=\s*["']?([^\s"']{4,})`)},
	// GitHub, GitLab and Slack tokens.
	{[]string{"gh"}, regexp.MustCompile(`\bgh[pousr]_([A-Za-z0-9]{30,})`)},
	{[]string{"github_pat_"}, regexp.MustCompile(`\bgithub_pat_([A-Za-z0-9_]{40,})`)},
	{[]string{"glpat-"}, regexp.MustCompile(`\bglpat-([A-Za-z0-9_-]{20,})`)},
	{[]string{"xox"}, regexp.MustCompile(`\bxox[abprs]-([A-Za-z0-9-]{10,})`)},
	// .docker/config.json auths.
	{[]string{`"auth"`}, regexp.MustCompile(`"auth"\s*:\s*"([A-Za-z0-9+/=]{8,})"`)},
	// .kube/config: client keys and bearer tokens.
	{[]string{"client-key-data"}, regexp.MustCompile(`client-key-data\s*:\s*["']?([A-Za-z0-9+/=]{16,})`)},
	{[]string{"token:"}, regexp.MustCompile(`^[ \t]*(?:-[ \t]*)?token:[ \t]*["']?([A-Za-z0-9._~+/=-]{20,})`)},
	// user:password@ in URLs (postgres://user:secret@host).
	{[]string{"://"}, regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@"'<>]+:([^/\s@"'<>]{3,})@`)},
}

// redact overwrites, in place, the secrets in content: the bodies of
// private key blocks and the credentialPatterns. It keeps every byte
// offset and line: each secret byte becomes '*', after a "[redacted]"
// prefix where it fits, so that lines, chunks and citations computed on
// the redacted text hold for the file on disk. It returns content.
func redact(content []byte) []byte {
	if bytes.Contains(content, keyBegin) {
		for _, b := range privateKeyBlocks(content) {
			mask(content[b[0]:b[1]])
		}
	}
	for _, cp := range credentialPatterns {
		for _, m := range cp.markers {
			redactLines(content, []byte(m), cp.re)
		}
	}
	return content
}

// redactLines runs re on each line of content that holds marker and
// masks its first group.
func redactLines(content, marker []byte, re *regexp.Regexp) {
	from, done := 0, -1 // done: the end of the last line matched
	for {
		i := bytes.Index(content[from:], marker)
		if i < 0 {
			return
		}
		i += from
		start := bytes.LastIndexByte(content[:i], '\n') + 1
		end := bytes.IndexByte(content[i:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += i
		}
		if start > done {
			line := content[start:end]
			for _, m := range re.FindAllSubmatchIndex(line, -1) {
				if len(m) >= 4 && m[2] >= 0 {
					mask(line[m[2]:m[3]])
				}
			}
			done = end
		}
		from = end
		if from >= len(content) {
			return
		}
	}
}

// Redact returns text with its secrets masked (see redact), for text that
// did not come through the index (a model's answer, a log line).
func Redact(text string) string {
	if !mayHoldSecret(text) {
		return text
	}
	return string(redact([]byte(text)))
}

func mayHoldSecret(text string) bool {
	if strings.Contains(text, string(keyBegin)) {
		return true
	}
	for _, cp := range credentialPatterns {
		for _, m := range cp.markers {
			if strings.Contains(text, m) {
				return true
			}
		}
	}
	return false
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

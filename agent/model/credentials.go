package model

import (
	"net/url"
	"strings"

	"github.com/askls/askls/index"
)

// askls's own credentials (the API key, a password in OLLAMA_HOST, a key
// in a URL) are never echoed: every message, notice, answer and thread
// turn the agent hands out goes through scrub, and the server addresses
// it shows go through ShownURL.

// Scrub masks in text what could be a credential: key (the configured API
// key) wherever it appears, and everything the index's secret detector
// knows (index.Redact: bearer tokens, "sk-" keys, the password of
// scheme://user:password@host, key-like query parameters, the token
// formats of the common services). A model server's error body is
// scrubbed before it is shown or stored.
func Scrub(text, key string) string {
	if len(key) >= 8 {
		text = strings.ReplaceAll(text, key, "[redacted]")
	}
	return index.Redact(text)
}

// ShownURL is raw as messages show it: its user info (user:password@, or
// a token as user) becomes "[redacted]@" and the values of its key-like
// query parameters (api_key, key, token, access_token, sig, ...) become
// "[redacted]". Text that is not a URL is scrubbed.
func ShownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return Scrub(raw, "")
	}
	q := u.Query()
	masked := false
	for name := range q {
		if keyLikeParam(name) {
			q[name] = []string{"[redacted]"}
			masked = true
		}
	}
	if masked {
		u.RawQuery = q.Encode()
	}
	hadUser := u.User != nil
	u.User = nil
	s := u.String()
	if hadUser {
		s = strings.Replace(s, "://", "://[redacted]@", 1)
	}
	return s
}

// keyLikeParam reports whether a URL query parameter's name says that its
// value is a credential: api_key, key, token, access_token, secret, sig...
func keyLikeParam(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"key", "token", "secret", "pass", "pwd", "auth", "sig", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// hasKeyParam reports whether u's query holds a key-like parameter.
func hasKeyParam(u *url.URL) bool {
	for name := range u.Query() {
		if keyLikeParam(name) {
			return true
		}
	}
	return false
}

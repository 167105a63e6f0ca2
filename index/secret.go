package index

import (
	"bytes"
	"path"
	"strings"
)

// secretNames are the file names (gitignore-style globs on the base name)
// that never enter the index, whatever the ignore files say: environment
// files, private keys, certificates with keys, and credential stores.
// This list is documented in the README; keep them in step.
var secretNames = []string{
	".env", ".env.*", "*.env",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx",
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "*_rsa", "*_ed25519",
	".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", ".htpasswd",
	"credentials", "credentials.json", "credentials.yml", "credentials.yaml",
	"secrets.json", "secrets.yml", "secrets.yaml", "*.tfstate", "*.tfvars",
}

// isSecretName reports whether the base name of p matches secretNames.
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

// looksLikePrivateKey reports whether a non-code file holds a private key.
// Source files are not checked: test files embed sample keys on purpose.
func looksLikePrivateKey(lang string, content []byte) bool {
	if lang != "text" && !strings.HasPrefix(lang, "yaml") && lang != "json" && lang != "toml" {
		return false
	}
	return bytes.Contains(content, []byte("PRIVATE KEY-----"))
}

package secret

import (
	"path"
	"strings"
	"testing"
)

const testKeyBody = "MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n"

func TestPrivateKeyBlocksNeedARealBody(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		key        bool
	}{
		{"ed25519 PKCS8, one line", "-----BEGIN PRIVATE KEY-----\n" + testKeyBody + "-----END PRIVATE KEY-----\n", true},
		{"indented in YAML", "tls:\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    " + testKeyBody + "    -----END EC PRIVATE KEY-----\n", true},
		{"encrypted, with headers", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n" + testKeyBody + testKeyBody + "-----END RSA PRIVATE KEY-----\n", true},
		// npm's man/man7/config.7 shows this placeholder.
		{"placeholder on one line", `key="-----BEGIN PRIVATE KEY-----\nXXXX\nXXXX\n-----END PRIVATE KEY-----"` + "\n", false},
		{"placeholder body", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n", false},
		{"header only", "Look for -----BEGIN PRIVATE KEY----- in the file.\nThat is all.\n", false},
		{"no end", "-----BEGIN PRIVATE KEY-----\n" + testKeyBody, false},
	} {
		if got := len(privateKeyBlocks([]byte(tc.text))) > 0; got != tc.key {
			t.Errorf("%s: key = %v, want %v", tc.name, got, tc.key)
		}
		red := string(Redact([]byte(tc.text)))
		if len(red) != len(tc.text) || strings.Count(red, "\n") != strings.Count(tc.text, "\n") {
			t.Errorf("%s: redaction changed offsets or lines:\n%s", tc.name, red)
		}
		if tc.key && strings.Contains(red, "MC4CAQAw") {
			t.Errorf("%s: body not redacted:\n%s", tc.name, red)
		}
		if !tc.key && red != tc.text {
			t.Errorf("%s: redacted a text that holds no key:\n%s", tc.name, red)
		}
	}
}

func TestRedactKeepsTheTextAroundCredentials(t *testing.T) {
	for in, secret := range map[string]string{
		`const k = "AKIAIOSFODNN7EXAMPLE"`:                                 "IOSFODNN7EXAMPLE",
		`aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`: "wJalrXUtnFEMI",
		`//registry.npmjs.org/:_authToken=npm_abcdefgh12345678`:            "npm_abcdefgh12345678",
		`"auth": "dXNlcjpwYXNzd29yZA=="`:                                   "dXNlcjpwYXNzd29yZA",
		"    token: eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ":                    "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ",
		"client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVk=":            "LS0tLS1CRUdJTiBSU0Eg",
		`dsn := "postgres://app:s3cretpw@db:5432/app"`:                     "s3cretpw",
		`tok := "ghp_ABCDEFghijklMNOPqrstUVWXyz0123456789"`:                "ABCDEFghijklMNOP",
		`slack := "xoxb-1234567890-abcdefghij"`:                            "1234567890-abcdef",
	} {
		out := RedactString(in)
		if strings.Contains(out, secret) || len(out) != len(in) || !strings.Contains(out, "[redacted]") && !strings.Contains(out, "****") {
			t.Errorf("Redact(%q) = %q", in, out)
		}
	}
	for _, plain := range []string{
		"token := lexer.Next()", "see https://example.com/a@b", "var AKIA = 1", "password = flag.String(...)",
		"func auth(user string) error", "github.com/user/repo", "user_password = getPassword()", `dsn := fmt.Sprintf("postgres://%s:%s@%s/db", u, p, h)`,
	} {
		if out := RedactString(plain); out != plain {
			t.Errorf("Redact(%q) = %q: no secret there", plain, out)
		}
	}
}

// TestRedactLeavesCodeAlone: lines of ordinary code that look like the
// detector's formats (from GOROOT and common projects) are not masked.
func TestRedactLeavesCodeAlone(t *testing.T) {
	for _, plain := range []string{
		`if l.machine != "" && l.login != "" && l.password != "" {`,
		"\tIMAGE_REL_ARM64_TOKEN          = 0x000C",
		"\tTOKEN_ALL_ACCESS = TOKEN_ASSIGN_PRIMARY |",
		"\tSIOCGLIFTOKEN                 = -0x3e8f8f8c",
		"\tDEBUG_TOKEN=true",
		`	"secret":                               "\U0001f92b",`,
		`	encodeUserPassword:   "encodeUserPassword",`,
		`DB_PASSWORD = os.environ["DB_PASSWORD"]`,
		`export API_TOKEN=${API_TOKEN}`,
		`API_SECRET=$(cat /run/secrets/api)`,
		`url := base + "?key=" + k`,
		`u := fmt.Sprintf("%s?token=%s", base, tok)`,
		`skip := "sk-learn-is-a-library"`,
		`Authorization: Bearer <token>`,
		`// The machine reads the password from a file.`,
		`const name = "DB_PASSWORD"`,
	} {
		if out := RedactString(plain); out != plain {
			t.Errorf("Redact(%q) = %q: no secret there", plain, out)
		}
	}
}

// TestSecretNameGlobsMatchLikePathMatch: the prefix/suffix shortcut of
// the secret name globs agrees with path.Match.
func TestSecretNameGlobsMatchLikePathMatch(t *testing.T) {
	names := []string{"id_rsa", "id_rsa.pub", "id_rsa_backup", "xid_rsa", "deploy_rsa", "_rsa", ".env.local", ".env-prod", ".env",
		".envrc", "prod_accessKeys.csv", "_accessKeys.csv", "accessKeys.csv", "service-account.json", "service-account-prod.json",
		"service-account.yaml", "x-service-account.json", "secring.gpg", "terraform.tfstate.backup", "main.go", "secrets.go"}
	for _, g := range secretGlobs {
		for _, n := range names {
			want, _ := path.Match(g.pattern, n)
			if got := g.matches(n); got != want {
				t.Errorf("%s against %q: %v, path.Match says %v", n, g.pattern, got, want)
			}
		}
	}
	for _, n := range []string{".envrc", ".env-local", ".my.cnf", ".s3cfg", "key.ppk", ".vault-token", "secrets.toml", "application_default_credentials.json",
		"prod_accessKeys.csv", "id_rsa_backup", "server.pem", "x.key", "x.p12", ".aws/credentials", ".netrc", ".pgpass", ".npmrc", ".pypirc"} {
		if !IsName(n) {
			t.Errorf("%s is not a secret name", n)
		}
	}
	for _, n := range []string{"secrets.go", "secret.go", "env.go", "keys.md", "credentials.go", "config.txt", "id.go"} {
		if IsName(n) {
			t.Errorf("%s is a secret name", n)
		}
	}
}

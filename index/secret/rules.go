package secret

import (
	"bytes"
	"regexp"
	"sync"
)

// The rules of the content secret detector: well-known credentials inside
// ordinary files, each within one line. The formats follow the ideas of
// maintained rule sets (gitleaks' rules, MIT); the expressions are our
// own. The first group of each expression is the secret part, masked by
// Redact; the rest of the line stays readable. A rule runs only on the
// lines that hold one of its markers: most files hold none, and looking
// for a marker is far cheaper than running the expression over the file.
// valid, when set, must accept the secret part too (a token with no digit
// is a word, not a key).
//
// Keep docs/hardening.md's list in step, and add each new format to the
// corpus of internal/secretcorpus.
type credentialRule struct {
	name    string
	markers []string
	re      func() *regexp.Regexp // compiled at its first use (lazyRegexp)
	valid   func([]byte) bool
}

// lazyRegexp compiles pattern at its first use: the rules' 51
// expressions took 4 ms at the start of every process, which may read no
// file (a warm `askls index` or `askls search` that shows none).
// TestEveryCredentialRuleCompiles compiles them all.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

var credentialPatterns = []credentialRule{
	// AWS: access key ids (long-term, temporary and the other kinds),
	// secret keys as env, INI, JSON and YAML write them
	// (aws_secret_access_key, "SecretAccessKey", secret_key in .s3cfg),
	// the console's *_accessKeys.csv (an id, a comma, the secret), and
	// session tokens. The pair goes first: it needs the id unmasked.
	{"aws key pair (csv)", []string{"AKIA", "ASIA"},
		lazyRegexp(`(?:AKIA|ASIA)[A-Z2-7]{16}["']?\s*[,;\t|:]\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`), nil},
	{"aws access key id", []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"},
		lazyRegexp(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])([A-Z2-7]{16})\b`), nil},
	{"aws secret key", []string{"ecret_access_key", "ecretAccessKey", "ecretaccesskey", "ecret_key", "ecretKey", "ecretkey", "ECRET_ACCESS_KEY", "ECRET_KEY", "ECRETKEY"},
		lazyRegexp(`(?i)secret_?(?:access_?)?key["']?\s*[=:]\s*["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`), nil},
	{"aws session token", []string{"ession_token", "essionToken", "essiontoken", "ESSION_TOKEN"},
		lazyRegexp(`(?i)session_?token["']?\s*[=:]\s*["']?([A-Za-z0-9/+=]{64,})`), nil},
	// Azure: storage and service bus connection strings, AD client secrets.
	{"azure account key", []string{"AccountKey=", "SharedAccessKey="},
		lazyRegexp(`(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/=]{40,})`), nil},
	{"azure ad client secret", []string{"Q~"},
		lazyRegexp(`\b[A-Za-z0-9_~.]{3}\dQ~([A-Za-z0-9_~.-]{31,34})`), nil},
	// Google: API keys, OAuth client secrets and access tokens.
	{"google api key", []string{"AIza"}, lazyRegexp(`\bAIza([0-9A-Za-z_-]{35})`), nil},
	{"google oauth client secret", []string{"GOCSPX-"}, lazyRegexp(`\bGOCSPX-([A-Za-z0-9_-]{28})`), nil},
	{"google oauth access token", []string{"ya29."}, lazyRegexp(`\bya29\.([A-Za-z0-9_-]{20,})`), nil},
	// Package registries: .npmrc ("//registry/:_authToken=", "_auth=",
	// "_password="), .yarnrc.yml, npm and PyPI tokens.
	{"npmrc auth", []string{"_auth", "_password"},
		lazyRegexp(`^[ \t]*(?://\S*:)?_(?:authToken|auth|password)\s*=\s*["']?([^\s"']{4,})`), nil},
	{"yarn auth token", []string{"npmAuthToken", "npmAuthIdent"},
		lazyRegexp(`npmAuth(?:Token|Ident)["']?\s*:\s*["']?([^\s"']{8,})`), nil},
	{"npm token", []string{"npm_"}, lazyRegexp(`\bnpm_([A-Za-z0-9]{36})\b`), nil},
	{"pypi token", []string{"pypi-AgE"}, lazyRegexp(`\bpypi-(AgE[A-Za-z0-9_-]{50,})`), nil},
	// Code hosts and chat: GitHub, GitLab, Slack, Discord, Telegram.
	{"github token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, lazyRegexp(`\bgh[pousr]_([A-Za-z0-9]{30,})`), nil},
	{"github fine-grained token", []string{"github_pat_"}, lazyRegexp(`\bgithub_pat_([A-Za-z0-9_]{40,})`), nil},
	{"gitlab token", []string{"glpat-"}, lazyRegexp(`\bglpat-([A-Za-z0-9_-]{20,})`), nil},
	{"slack token", []string{"xox"}, lazyRegexp(`\bxox[abprse]-([A-Za-z0-9-]{10,})`), nil},
	{"slack app token", []string{"xapp-"}, lazyRegexp(`\bxapp-\d-([A-Za-z0-9-]{20,})`), nil},
	{"slack webhook", []string{"hooks.slack.com"}, lazyRegexp(`hooks\.slack\.com/(?:services|workflows)/([A-Za-z0-9/_+-]{20,})`), nil},
	{"discord webhook", []string{"/api/webhooks/"}, lazyRegexp(`discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{40,})`), nil},
	{"telegram bot token", []string{":AA"}, lazyRegexp(`\b\d{8,10}:(AA[A-Za-z0-9_-]{33})\b`), nil},
	// Payments and mail: Stripe, Square, SendGrid, Mailgun.
	{"stripe key", []string{"k_live_", "k_test_"}, lazyRegexp(`\b[sr]k_(?:live|test)_([A-Za-z0-9]{16,})`), nil},
	{"stripe webhook secret", []string{"whsec_"}, lazyRegexp(`\bwhsec_([A-Za-z0-9]{24,})`), nil},
	{"square token", []string{"sq0"}, lazyRegexp(`\bsq0(?:atp|csp)-([A-Za-z0-9_-]{22,})`), nil},
	{"sendgrid key", []string{"SG."}, lazyRegexp(`\bSG\.([A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})`), nil},
	{"mailgun key", []string{"key-"}, lazyRegexp(`\bkey-([0-9a-f]{32})\b`), nil},
	// AI services: OpenAI and Anthropic style "sk-" keys, Hugging Face.
	{"sk- api key", []string{"sk-"}, lazyRegexp(`\bsk-((?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{20,})`), hasDigit},
	{"hugging face token", []string{"hf_"}, lazyRegexp(`\bhf_([A-Za-z0-9]{34,40})\b`), nil},
	// Infrastructure: Vault, Terraform Cloud, DigitalOcean, Docker Hub,
	// Shopify, Databricks, Grafana, New Relic, Linear, Postman, age.
	{"vault token", []string{"hvs.", "hvb.", "hvr."}, lazyRegexp(`\bhv[sbr]\.([A-Za-z0-9_-]{24,})`), nil},
	{"terraform cloud token", []string{".atlasv1."}, lazyRegexp(`\b[A-Za-z0-9]{14}\.atlasv1\.([A-Za-z0-9_=-]{60,})`), nil},
	{"digitalocean token", []string{"_v1_"}, lazyRegexp(`\bdo[opr]_v1_([a-f0-9]{64})\b`), nil},
	{"docker hub token", []string{"dckr_pat_"}, lazyRegexp(`\bdckr_pat_([A-Za-z0-9_-]{20,})`), nil},
	{"shopify token", []string{"shpat_", "shpss_", "shpca_", "shppa_"}, lazyRegexp(`\bshp(?:at|ss|ca|pa)_([a-fA-F0-9]{32})\b`), nil},
	{"databricks token", []string{"dapi"}, lazyRegexp(`\bdapi([a-f0-9]{32})\b`), nil},
	{"grafana token", []string{"glsa_", "glc_"}, lazyRegexp(`\bgl(?:sa|c)_([A-Za-z0-9_=+/-]{32,})`), nil},
	{"new relic key", []string{"NRAK-"}, lazyRegexp(`\bNRAK-([A-Z0-9]{27})\b`), nil},
	{"linear key", []string{"lin_api_"}, lazyRegexp(`\blin_api_([A-Za-z0-9]{40})\b`), nil},
	{"postman key", []string{"PMAK-"}, lazyRegexp(`\bPMAK-([a-f0-9]{24}-[a-f0-9]{34})\b`), nil},
	{"age secret key", []string{"AGE-SECRET-KEY-1"}, lazyRegexp(`AGE-SECRET-KEY-1([QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})`), nil},
	// .docker/config.json auths; .kube/config client keys and tokens.
	{"docker auth", []string{`"auth"`}, lazyRegexp(`"auth"\s*:\s*"([A-Za-z0-9+/=]{8,})"`), nil},
	{"kube client key", []string{"client-key-data"}, lazyRegexp(`client-key-data\s*:\s*["']?([A-Za-z0-9+/=]{16,})`), nil},
	{"yaml token", []string{"token:"}, lazyRegexp(`^[ \t]*(?:-[ \t]*)?token:[ \t]*["']?([A-Za-z0-9._~+/=-]{20,})`), nil},
	// JSON web tokens: the header stays, the payload and signature go.
	{"jwt", []string{"eyJ"}, lazyRegexp(`\beyJ[A-Za-z0-9_-]{8,}\.(eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`), nil},
	// HTTP credentials: bearer and basic tokens in headers.
	{"bearer token", []string{"Bearer", "bearer", "BEARER"}, lazyRegexp(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})`), hasDigit},
	{"authorization header", []string{"uthorization", "UTHORIZATION"},
		lazyRegexp(`(?i)authorization["']?\s*[:=]\s*["']?(?:basic|token)\s+([A-Za-z0-9._~+/=-]{8,})`), nil},
	// URLs: user:password@ (postgres://user:secret@host), and key-like
	// query parameters (?api_key=, &token=, &sig=).
	{"url password", []string{"://"}, lazyRegexp(`[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@"'<>]+:([^/\s@"'<>]{3,})@`), nil},
	{"url key parameter", []string{"key=", "Key=", "KEY=", "token=", "Token=", "TOKEN=", "secret=", "Secret=", "SECRET=", "auth=", "Auth=", "AUTH=",
		"pass=", "Pass=", "PASS=", "word=", "WORD=", "asswd=", "ASSWD=", "pwd=", "PWD=", "sig=", "Sig=", "SIG=", "ignature=", "IGNATURE="},
		lazyRegexp(`(?i)[?&;](?:[a-z0-9_.-]*(?:api[_-]?key|apikey|key|token|secret|auth|password|passwd|pass|pwd|sig|signature))=([^&\s"'<>#$%{}][^&\s"'<>#${}]{3,})`), nil},
	// Secret fields of JSON, YAML and code with a quoted value
	// ("client_secret": "…", "refresh_token": "…", password = "…").
	{"secret field", []string{"secret", "Secret", "SECRET", "_token", "_Token", "_TOKEN", "ssword", "SSWORD", "asswd", "ASSWD",
		"pi_key", "piKey", "PI_KEY", "pikey", "piKEY", "PIKEY", "Pi_Key", "_key_id"},
		lazyRegexp(`(?i)(?:client_secret|secret|refresh_token|access_token|auth_token|id_token|private_key_id|api_?key|password|passwd)["']?\s*(?::=|[:=])\s*["']([^"'\s\\][^"'\s]{7,})["']`), notAWord},
	// Environment files and shell: NAME=value where NAME says what it
	// holds (DB_PASSWORD=…, export API_TOKEN=…), in .envrc, compose files,
	// scripts. Only upper-case names: code's variables are left alone,
	// and references ($VAR, ${VAR}, $(cmd)) are not values.
	{"env secret", []string{"PASSWORD", "PASSWD", "SECRET", "TOKEN", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIALS"},
		lazyRegexp(`(?:^|[\s;])(?:export\s+)?-?\s*[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY|CREDENTIALS)[A-Z0-9_]*\s*[=:]\s*["']?([^\s"'$(){}<>]{6,})["']?(?:[\s;#]|$)`), notAConstant},
	// .netrc lines outside a .netrc: "machine host login me password pw".
	{"netrc password", []string{"password ", "password\t"}, lazyRegexp(`(?:^|\s)(?:machine\s+[\w.-]+|default)(?:\s+(?:login|account|port)\s+\S+)*\s+password\s+([^\s=!<>]\S*)`), nil},
	// PuTTY keys: the MAC (the private lines are masked as a block).
	{"putty mac", []string{"Private-MAC:"}, lazyRegexp(`^Private-MAC:\s*([0-9a-fA-F]{16,})`), nil},
}

// notAWord reports whether a quoted value is more than a word of up to
// 19 letters ("Password": "Mot de passe" is a label, "encodeUserPassword"
// a name).
func notAWord(b []byte) bool {
	return !plainWord.Match(b)
}

// notAConstant reports whether NAME=value's value is more than a number
// or the name of another constant (TOKEN_READ = 0x20008,
// TOKEN_ALL_ACCESS = TOKEN_QUERY | ...) or a flag (true, none).
func notAConstant(b []byte) bool {
	return !constantValue.Match(b)
}

var (
	plainWord     = regexp.MustCompile(`^[A-Za-z]{1,19}$`)
	constantValue = regexp.MustCompile(`^-?(?:0[xXoObB][0-9a-fA-F_]+|[0-9_.]+|[A-Z][A-Z_]*|(?i:true|false|null|nil|none|changeme))$`)
)

// hasDigit reports whether b holds an ASCII digit.
func hasDigit(b []byte) bool {
	return bytes.ContainsAny(b, "0123456789")
}

// secretNames are the file names (gitignore-style globs on the base name)
// that never enter the index and are never read, whatever the ignore files
// say, whether the file is on disk, open in the editor, or reached
// through a symlink: environment files, private keys, certificates with
// keys, and credential stores. Keep docs/hardening.md in step.
var secretNames = []string{
	// Environment files (.env, .env.local, .env-prod, prod.env, direnv).
	".env", ".env.*", ".env-*", "*.env", ".envrc",
	// Private keys and key stores.
	"*.pem", "*.key", "*.p12", "*.pfx", "*.p8", "*.pkcs12", "*.jks", "*.keystore", "*.kdbx", "*.ppk", "*.keytab",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", "*_rsa", "*_ed25519", "*_ecdsa", "*_dsa", "secring.*",
	// Credential stores of tools.
	".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", ".htpasswd", ".pgpass",
	".my.cnf", ".mylogin.cnf", ".s3cfg", ".boto", ".vault-token", ".dockercfg", ".terraformrc", "terraform.rc",
	"credentials", "credentials.json", "credentials.yml", "credentials.yaml", "credentials.toml", "credentials.csv",
	"credentials.db", "credentials.tfrc.json", "*.tfstate", "*.tfstate.backup", "*.tfvars",
	"kubeconfig", "*.kubeconfig",
	// Cloud credentials: AWS console exports, gcloud, Azure, Firebase.
	"*_accessKeys.csv", "*_credentials.csv", "rootkey.csv",
	"application_default_credentials.json", "access_tokens.db", "adc.json",
	"accessTokens.json", "msal_token_cache.json", "msal_token_cache.bin",
	"serviceAccountKey.json", "service-account*.json", "*-service-account.json",
	// secrets.* as data (secrets.toml, secrets.yml, ...), not as code.
	"secrets.json", "secrets.yml", "secrets.yaml", "secrets.toml", "secrets.ini", "secrets.env", "secrets.txt",
	"secrets.conf", "secrets.cfg", "secrets.properties", "secrets.xml", "secrets.csv", "secrets.enc", "secrets.auto.tfvars",
}

// secretPaths are credential stores known by their folder as well as
// their name ("config" alone is too common a name).
var secretPaths = []string{".docker/config.json", ".kube/config", ".composer/auth.json", ".config/gh/hosts.yml", ".config/hub"}

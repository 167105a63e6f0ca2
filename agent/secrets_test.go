package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/internal/modeltest"
	"github.com/askls/askls/internal/secretcorpus"

	"github.com/askls/askls/index"
)

// pemBody is a private key body: base64 lines, as a real key has.
var pemBody = strings.Repeat("MIIEsecretBodyAAAABBBBCCCCDDDDEEEEFFFFGGGGHHHHIIIIJJJJKKKKLLLL0123\n", 4)

// plantedSecrets are files holding secrets of every kind askls knows, and
// the strings none of them may let out.
var plantedSecrets = map[string]string{
	".env":                "DB_PASSWORD=hunter2secretvalue\n",
	"id_rsa":              "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----\n",
	"server.pem":          "-----BEGIN PRIVATE KEY-----\n" + pemBody + "-----END PRIVATE KEY-----\n",
	"credentials.json":    `{"client_secret": "credsecretvalue"}` + "\n",
	".npmrc":              "//registry.npmjs.org/:_authToken=npmTOKENsecretvalue123\n",
	".pypirc":             "[pypi]\nusername = __token__\npassword = pypisecretvalue\n",
	".pgpass":             "localhost:5432:app:app:pgpasssecretvalue\n",
	".docker/config.json": `{"auths": {"registry.example": {"auth": "ZG9ja2Vyc2VjcmV0dmFsdWU="}}}` + "\n",
	".kube/config":        "users:\n- name: dev\n  user:\n    token: kubeTOKENsecretvalue0123456789\n",
	"notes.txt":           "Deploy notes.\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody + "-----END OPENSSH PRIVATE KEY-----\nThe end.\n",
	"deploy/values.yaml":  "tls:\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    " + strings.ReplaceAll(strings.TrimSuffix(pemBody, "\n"), "\n", "\n    ") + "\n    -----END EC PRIVATE KEY-----\n",
	"cloud/aws.go":        "package cloud\n\n// AccessKey is the deploy key.\nconst AccessKey = \"AKIAIOSFODNN7EXAMPLE\"\n\nconst aws_secret_access_key = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"\n",
	"cloud/db.go":         "package cloud\n\n// DSN is the database.\nconst DSN = \"postgres://app:pgURLsecretvalue@db:5432/app\"\n",
	"cloud/tokens.go":     "package cloud\n\nconst GitHubToken = \"ghp_ABCDEFghijklMNOPqrstUVWXyz0123456789\"\n",
	"docs/config.md":      "Set the key like this:\n\n    key=\"-----BEGIN PRIVATE KEY-----\\nXXXX\\nXXXX\\n-----END PRIVATE KEY-----\"\n",
	"app/handler.go":      "package app\n\n// Handle serves the page; it reads DB_PASSWORD from the environment.\nfunc Handle() string { return \"DB_PASSWORD\" }\n",
}

var leaks = []string{
	"hunter2secretvalue", "MIIEsecretBody", "credsecretvalue", "npmTOKENsecretvalue123", "pypisecretvalue",
	"pgpasssecretvalue", "ZG9ja2Vyc2VjcmV0dmFsdWU", "kubeTOKENsecretvalue", "IOSFODNN7EXAMPLE",
	"wJalrXUtnFEMI", "pgURLsecretvalue", "ABCDEFghijklMNOPqrstUVWXyz",
}

// secretNamedFiles are never shown, not even by name.
var secretNamedFiles = []string{".env", "id_rsa", "server.pem", "credentials.json", ".npmrc", ".pypirc", ".pgpass",
	".docker/config.json", ".kube/config", "config.txt", "deploy_key.txt"}

func secretWorkspace(t *testing.T) (*index.Index, string) {
	t.Helper()
	dir := t.TempDir()
	for p, c := range plantedSecrets {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Ordinary names for secret files.
	os.Symlink(".env", filepath.Join(dir, "config.txt"))
	os.Symlink("id_rsa", filepath.Join(dir, "deploy_key.txt"))
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Roots: []string{dir}, CacheDir: t.TempDir(), Debounce: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// The editor has some of them open.
	var gen uint64
	for _, p := range []string{".env", "id_rsa", "server.pem", "credentials.json", ".npmrc", "notes.txt", ".kube/config"} {
		gen = ix.Update(p, []byte(plantedSecrets[p]))
	}
	ix.WaitFor(ctx, gen)
	return ix, dir
}

func checkNoLeak(t *testing.T, what, out string) {
	t.Helper()
	for _, s := range leaks {
		if strings.Contains(out, s) {
			t.Errorf("%s lets out %q:\n%s", what, s, out)
		}
	}
}

// TestSecretsStayOutOfEveryToolAndBothModes plants each kind of secret
// (secret names on disk and open in the editor, symlinks with ordinary
// names, private keys and credentials inside ordinary files) and drives
// every tool, retrieval mode and model mode: no secret reaches a tool
// result, the model, an answer or a citation excerpt.
func TestSecretsStayOutOfEveryToolAndBothModes(t *testing.T) {
	ix, _ := secretWorkspace(t)
	snap := ix.Snapshot()
	var toolRuns [][2]string
	for p := range plantedSecrets {
		toolRuns = append(toolRuns, [2]string{"read_file", fmt.Sprintf(`{"path":%q}`, p)}, [2]string{"outline", fmt.Sprintf(`{"path":%q}`, p)})
	}
	for _, p := range []string{"config.txt", "deploy_key.txt"} {
		toolRuns = append(toolRuns, [2]string{"read_file", fmt.Sprintf(`{"path":%q}`, p)})
	}
	for _, pat := range []string{"secret", "EXAMPLE", "TOKEN", "MIIE", "PRIVATE", "DB_PASSWORD", "auth", "ghp_", "."} {
		toolRuns = append(toolRuns, [2]string{"grep", fmt.Sprintf(`{"pattern":%q}`, pat)}, [2]string{"grep", fmt.Sprintf(`{"pattern":%q,"path_glob":"**"}`, pat)})
	}
	for _, q := range []string{"DB_PASSWORD hunter2secretvalue", "AccessKey AKIA", "private key", "token", "DSN postgres", "GitHubToken", "auth"} {
		toolRuns = append(toolRuns, [2]string{"search_code", fmt.Sprintf(`{"query":%q,"limit":20}`, q)})
	}
	for _, g := range []string{"**", "**/*", "*", ".*", "**/.*", "**/config*"} {
		toolRuns = append(toolRuns, [2]string{"list_files", fmt.Sprintf(`{"glob":%q}`, g)})
	}
	for _, s := range []string{"AccessKey", "DSN", "GitHubToken", "key", "token"} {
		toolRuns = append(toolRuns, [2]string{"find_symbol", fmt.Sprintf(`{"name":%q}`, s)})
	}
	for _, c := range toolRuns {
		var a tools.Args
		json.Unmarshal([]byte(c[1]), &a)
		out, reg, err := runTool(t, snap, c[0], a)
		if err != nil {
			out += "\nerror: " + err.Error()
		}
		what := c[0] + " " + c[1]
		checkNoLeak(t, what, out)
		for _, ev := range reg.All() {
			checkNoLeak(t, what+" (registered evidence)", ev.Text)
		}
		if c[0] == "list_files" || c[0] == "grep" || c[0] == "search_code" {
			for _, name := range secretNamedFiles {
				for _, line := range strings.Split(out, "\n") {
					if strings.HasSuffix(line, " "+name) || line == name || strings.Contains(line, " "+name+":") {
						t.Errorf("%s names the secret file %s:\n%s", what, name, out)
					}
				}
			}
		}
	}
	// The placeholder in documentation is not a key: that file is indexed.
	if _, err := snap.Content("docs/config.md"); err != nil {
		t.Errorf("a documentation page with a placeholder key is refused: %v", err)
	}
	if hits, _ := snap.Search(context.Background(), "BEGIN PRIVATE KEY placeholder key like this", 5, index.Filter{}); !slices.ContainsFunc(hits, func(h index.Hit) bool { return h.Path == "docs/config.md" }) {
		t.Errorf("the documentation page is not searchable: %+v", hits)
	}

	// Retrieval mode.
	q := "where are DB_PASSWORD, the AccessKey, the DSN, the GitHubToken and the private key and token?"
	res, err := testAgent(nil, Config{NoModel: true}).Ask(context.Background(), snap, Question{Text: q}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	checkNoLeak(t, "retrieval mode", string(b))
	if len(res.Citations) == 0 {
		t.Errorf("retrieval mode cited nothing: %s", res.Answer)
	}

	// Model mode: the model calls the tools, then cites what it saw.
	var pairs []string
	for _, c := range toolRuns[:12] {
		pairs = append(pairs, c[0], c[1])
	}
	f := newFakeOllama(t,
		calls("read_file", `{"path":"cloud/aws.go"}`, "read_file", `{"path":"notes.txt"}`, "read_file", `{"path":"config.txt"}`,
			"grep", `{"pattern":"secret|EXAMPLE|TOKEN"}`, "search_code", `{"query":"DSN postgres token"}`),
		calls(pairs...),
		func(req *modeltest.Request) reply {
			return say("The key is in cloud/aws.go [1] and the notes [2], the DSN [3].")(req)
		},
	)
	res, err = testAgent(f, Config{MaxToolCalls: 64}).Ask(context.Background(), snap, Question{Text: q}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	checkNoLeak(t, "model mode result", string(b))
	for i, req := range f.Requests() {
		b, _ := json.Marshal(req.Messages)
		checkNoLeak(t, fmt.Sprintf("request %d to the model", i), string(b))
	}
}

// TestSecretCorpusReachesNoAgentRoute drives the agent over the secrets
// corpus (internal/secretcorpus: more than 40 formats, secret names,
// config.txt -> .env and chain.txt -> config.txt, some of them open in
// the editor): every tool as the model sees it, over every file and
// link; the retrieval answer; a model-mode answer whose model reads the
// files and echoes a key it was given; the requests sent to the model;
// the thread file; the log. No planted value comes out.
func TestSecretCorpusReachesNoAgentRoute(t *testing.T) {
	root := secretcorpus.Write(t)
	var logs bytes.Buffer
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Roots: []string{root}, CacheDir: t.TempDir(), Debounce: time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	files := secretcorpus.Files()
	var gen uint64
	for _, p := range []string{"config.txt", "chain.txt"} {
		gen = ix.Update(p, []byte(files[".env"]))
	}
	for _, p := range []string{".envrc", "keys/demo-project-4f2a.json", "src/billing.go", "notes/pgp.txt"} {
		gen = ix.Update(p, []byte(files[p]))
	}
	ix.WaitFor(ctx, gen)
	snap := ix.Snapshot()

	paths := []string{"config.txt", "chain.txt"}
	for p := range files {
		paths = append(paths, p)
	}
	var runs [][2]string
	for _, p := range paths {
		runs = append(runs, [2]string{"read_file", fmt.Sprintf(`{"path":%q}`, p)}, [2]string{"outline", fmt.Sprintf(`{"path":%q}`, p)})
	}
	for _, pat := range []string{".", "fake|FAKE", "secret|token|key|password"} {
		runs = append(runs, [2]string{"grep", fmt.Sprintf(`{"pattern":%q,"limit":1000}`, pat)})
	}
	for _, q := range []string{"password", "secret key", "api token", "private key", "credentials", "stripe key", "DB_PASSWORD"} {
		runs = append(runs, [2]string{"search_code", fmt.Sprintf(`{"query":%q,"limit":50}`, q)})
	}
	for _, l := range secretcorpus.Leaks() {
		runs = append(runs, [2]string{"search_code", fmt.Sprintf(`{"query":%q}`, l.Value)})
	}
	runs = append(runs, [2]string{"list_files", `{"glob":"**"}`}, [2]string{"list_files", `{"glob":"**/.*"}`})
	for _, s := range []string{"stripeKey", "openaiKey", "TOKEN", "mapsKey", "sendgrid"} {
		runs = append(runs, [2]string{"find_symbol", fmt.Sprintf(`{"name":%q}`, s)})
	}
	for _, s := range []string{"stripeKey", "openaiKey", "TOKEN", "mapsKey", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY", "private_key", "password", "dial"} {
		runs = append(runs, [2]string{"find_references", fmt.Sprintf(`{"name":%q,"tests":true}`, s)},
			[2]string{"find_references", fmt.Sprintf(`{"name":%q,"calls":true}`, s)})
	}
	ran := map[string]bool{}
	for _, c := range runs {
		ran[c[0]] = true
	}
	for _, name := range tools.Names() {
		if !ran[name] {
			t.Errorf("the tool %s is not driven over the corpus", name)
		}
	}
	for _, c := range runs {
		var a tools.Args
		json.Unmarshal([]byte(c[1]), &a)
		out, reg, err := runTool(t, snap, c[0], a)
		if err != nil {
			out += "\nerror: " + err.Error()
		}
		if c[0] == "search_code" {
			// The tool names the query it ran: that is the model's own text.
			out = strings.ReplaceAll(out, fmt.Sprint(a["query"]), "")
		}
		for _, ev := range reg.All() {
			out += "\n" + ev.Text
		}
		secretcorpus.Check(t, c[0]+" "+c[1], out)
	}

	// Retrieval mode, in a thread.
	th := NewThread(root)
	q := Question{Text: "where are the stripe key, the AWS secret access key, the GitHub token and DB_PASSWORD?"}
	res, err := testAgent(nil, Config{NoModel: true}).AskThread(ctx, snap, th, q, Events{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	secretcorpus.Check(t, "the retrieval answer", string(b))

	// Model mode: the model reads the files, then answers quoting a key
	// it was given in the question.
	var pairs []string
	for _, c := range runs[:40] {
		pairs = append(pairs, c[0], c[1])
	}
	f := newFakeOllama(t,
		calls("read_file", `{"path":"config.txt"}`, "read_file", `{"path":"keys/demo-project-4f2a.json"}`, "grep", `{"pattern":"FAKE|fake"}`),
		calls(pairs...),
		say("The Stripe key sk_live_stripeLIVEfake0123456789 is set in src/billing.go [1]."),
	)
	q2 := Question{Text: "is sk_live_stripeLIVEfake0123456789 the stripe key?"}
	res, err = testAgent(f, Config{MaxToolCalls: 64}).AskThread(ctx, snap, th, q2, Events{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	secretcorpus.Check(t, "the model-mode answer", string(b))
	if res.Refused || len(res.Citations) == 0 {
		t.Errorf("the model-mode answer is refused: %s", res.Answer)
	}
	for i, req := range f.Requests() {
		b, _ := json.Marshal(req.Messages)
		// The question itself is the user's: only what askls added is checked.
		secretcorpus.Check(t, fmt.Sprintf("request %d to the model", i), strings.ReplaceAll(string(b), q2.Text, ""))
	}
	b, _ = json.Marshal(th) // what the thread store writes
	secretcorpus.Check(t, "the thread file", string(b))
	secretcorpus.Check(t, "the log", logs.String())
}

package lsp

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSecretFilesStayOut: secret files opened in the editor (didOpen)
// and a private key in an ordinary open file reach no askls/ask result,
// citation excerpt or workspace/symbol answer. Before, an open .env was
// readable by every tool and quoted in citation excerpts.
func TestOpenSecretFilesStayOut(t *testing.T) {
	e := startEditor(t, editorSetup{})
	e.waitIndexed()
	body := strings.Repeat("MIIEsecretBodyAAAABBBBCCCCDDDDEEEEFFFFGGGGHHHHIIIIJJJJKKKKLLLL0123\n", 3)
	open := map[string]string{
		".env":             "DB_PASSWORD=hunter2secretvalue\nSTRIPE_KEY=sk_live_secretvalue\n",
		"id_rsa":           "-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\n",
		"server.pem":       "-----BEGIN PRIVATE KEY-----\n" + body + "-----END PRIVATE KEY-----\n",
		"credentials.json": `{"password": "credsecretvalue"}` + "\n",
		".npmrc":           "//registry.npmjs.org/:_authToken=npmTOKENsecretvalue123\n",
		"notes.txt":        "deploy password notes\n-----BEGIN PRIVATE KEY-----\n" + body + "-----END PRIVATE KEY-----\n",
		"shop/keys.go":     "package shop\n\n// DeployKey is the AWS key for the deploy password.\nconst DeployKey = \"AKIAIOSFODNN7EXAMPLE\"\n",
	}
	for p, c := range open {
		e.open(p, c)
	}
	e.sync()
	for _, q := range []string{"where is the DB_PASSWORD set?", "deploy password private key", "DeployKey AWS key", "npm auth token registry"} {
		res, err := e.ask(map[string]any{"question": q})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		for _, s := range []string{"hunter2secretvalue", "sk_live_secretvalue", "MIIEsecretBody", "credsecretvalue", "npmTOKENsecretvalue123", "IOSFODNN7EXAMPLE"} {
			if strings.Contains(string(b), s) {
				t.Errorf("%q: the answer lets out %q:\n%s", q, s, b)
			}
		}
		for _, name := range []string{".env", "id_rsa", "server.pem", "credentials.json", ".npmrc"} {
			if strings.Contains(string(b), `/`+name+`"`) {
				t.Errorf("%q: the answer cites the secret file %s", q, name)
			}
		}
	}
	if syms := e.symbols("DeployKey"); len(syms) == 0 || !strings.HasSuffix(string(syms[0].Location.URI), "shop/keys.go") {
		t.Errorf("workspace/symbol does not find DeployKey in the open shop/keys.go: %+v", syms)
	}
	for _, q := range []string{"DeployKey", "DB_PASSWORD", "STRIPE_KEY", "password", "Key", "K"} {
		b, _ := json.Marshal(e.symbols(q))
		for _, s := range []string{"hunter2secretvalue", "sk_live_secretvalue", "MIIEsecretBody", "credsecretvalue", "npmTOKENsecretvalue123", "IOSFODNN7EXAMPLE", ".env", "id_rsa", "server.pem", "credentials.json", ".npmrc"} {
			if strings.Contains(string(b), s) {
				t.Errorf("workspace/symbol %q lets out %q:\n%s", q, s, b)
			}
		}
	}
	e.shutdown()
}

// TestOpenSymlinkToASecretStaysOut: with config.txt -> .env and
// chain.txt -> config.txt open in the editor (didOpen, then didChange),
// askls/ask and the askls.ask command (and the answer files it writes)
// cite neither and quote no value of .env, whatever the question. Before, both were indexed and quoted under their ordinary
// names.
func TestOpenSymlinkToASecretStaysOut(t *testing.T) {
	root := writeFixture(t, "workspace.txtar")
	env := "DB_PASSWORD=hunter2linked\nAPI_TOKEN=tok3nlinkedvalue\n"
	os.WriteFile(filepath.Join(root, ".env"), []byte(env), 0o644)
	os.Symlink(".env", filepath.Join(root, "config.txt"))
	os.Symlink("config.txt", filepath.Join(root, "chain.txt"))
	answers := t.TempDir()
	e := startEditorAt(t, root, editorSetup{opts: Options{AnswerDir: answers}})
	e.waitIndexed()
	e.open("config.txt", env)
	e.open("chain.txt", env)
	e.sync()
	leaks := func(what, text string) {
		t.Helper()
		for _, s := range []string{"hunter2linked", "tok3nlinkedvalue", "config.txt", "chain.txt"} {
			if strings.Contains(text, s) {
				t.Errorf("%s lets out %q:\n%s", what, s, text)
			}
		}
	}
	for _, q := range []string{"DB_PASSWORD", "where is DB_PASSWORD set?", "API_TOKEN value"} {
		res, err := e.ask(map[string]any{"question": q})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		leaks("askls/ask "+q, string(b))
		// The command editors bind to a key, and the answer file
		// askls.showAnswer writes for it.
		var cmd askResult
		if err := e.command("askls.ask", []any{q}, &cmd); err != nil {
			t.Fatal(err)
		}
		b, _ = json.Marshal(cmd)
		leaks("askls.ask "+q, string(b))
		if err := e.command(cmdShowAnswer, nil, nil); err != nil { // writes the answer's file
			t.Fatal(err)
		}
	}
	written := 0
	filepath.WalkDir(answers, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			leaks("the answer file "+p, string(b))
			written++
		}
		return nil
	})
	if written == 0 {
		t.Error("askls.ask wrote no answer file to check")
	}
	e.shutdown()
}

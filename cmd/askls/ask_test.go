package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func askWorkspace(t *testing.T) (dir, cache string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"cart/discount.go": "package cart\n\n// ApplyDiscount lowers the total by percent (½ off is 50).\nfunc ApplyDiscount(total, percent int) int {\n\treturn total * (100 - percent) / 100\n}\n",
		"cart/cart.go":     "package cart\n\n// Cart holds items.\ntype Cart struct{ Items []int }\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, t.TempDir()
}

func TestAskJSONRetrieval(t *testing.T) {
	dir, cache := askWorkspace(t)
	var out, errb bytes.Buffer
	err := askMain(context.Background(), []string{"--root", dir, "--cache", cache, "--no-model", "--json", "apply a discount percent"}, &out, &errb)
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, errb.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	for _, k := range []string{"id", "question", "answer", "citations", "refused", "mode", "steps", "stats", "weak"} {
		if _, ok := res[k]; !ok {
			t.Errorf("no %q in %s", k, out.String())
		}
	}
	if res["mode"] != "retrieval" || res["refused"] != false {
		t.Errorf("mode %v refused %v", res["mode"], res["refused"])
	}
	cits := res["citations"].([]any)
	if len(cits) == 0 {
		t.Fatal("no citations")
	}
	c := cits[0].(map[string]any)
	var keys []string
	for k := range c {
		keys = append(keys, k)
	}
	if got := strings.Join(sortStrings(keys), ","); got != "end,excerpt,n,path,stale,start,symbol" {
		t.Errorf("citation keys %s", got)
	}
	if c["path"] != "cart/discount.go" || c["n"] != 1.0 || c["start"] != 3.0 || c["end"] != 6.0 || c["stale"] != false {
		t.Errorf("citation %v", c)
	}
	stats := res["stats"].(map[string]any)
	for _, k := range []string{"hops", "toolCalls", "promptTokens", "evalTokens", "ms"} {
		if _, ok := stats[k]; !ok {
			t.Errorf("stats lacks %q", k)
		}
	}
}

func TestAskTextCitationLines(t *testing.T) {
	dir, cache := askWorkspace(t)
	var out, errb bytes.Buffer
	// A model host that refuses connections: retrieval mode, exit 0.
	err := askMain(context.Background(), []string{"--root", dir, "--cache", cache, "--ollama-host", "127.0.0.1:1", "apply a discount percent"}, &out, &errb)
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, errb.String())
	}
	s := out.String()
	if !strings.Contains(s, "Retrieval mode: no model wrote this") {
		t.Errorf("output:\n%s", s)
	}
	line := regexp.MustCompile(`(?m)^\[1\] (\S+):3:1 \(to line 6\) ApplyDiscount$`).FindStringSubmatch(s)
	if line == nil {
		t.Fatalf("no citation line in:\n%s", s)
	}
	if !strings.HasSuffix(filepath.ToSlash(line[1]), "cart/discount.go") {
		t.Errorf("citation path %s", line[1])
	}
	if _, err := os.Stat(line[1]); err != nil && !filepath.IsAbs(line[1]) {
		wd, _ := os.Getwd()
		if _, err := os.Stat(filepath.Join(wd, line[1])); err != nil {
			t.Errorf("citation path does not open: %v", err)
		}
	}
	if !strings.Contains(errb.String(), "no Ollama server at http://127.0.0.1:1") {
		t.Errorf("stderr: %s", errb.String())
	}
}

func TestAskUsage(t *testing.T) {
	var out, errb bytes.Buffer
	err := askMain(context.Background(), nil, &out, &errb)
	if err == nil || exitCode(err) != 2 {
		t.Errorf("no question: %v", err)
	}
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func TestAskCursorFlagsAreChecked(t *testing.T) {
	dir, cache := askWorkspace(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--path", "cart/nope.go", "--line", "3"}, "--path cart/nope.go: no such file in the workspace"},
		{[]string{"--path", "cart/discount.go", "--line", "99"}, "--line 99: cart/discount.go has 6 lines"},
		{[]string{"--line", "3"}, "--line needs --path"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"--root", dir, "--cache", cache, "--no-model"}, tt.args...)
		err := askMain(context.Background(), append(args, "what does this do"), &out, &errb)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err %v, want a usage error saying %q (output %q)", tt.args, err, tt.want, out.String())
		}
	}
	// A cursor file given by its absolute path is the same file.
	var out, errb bytes.Buffer
	err := askMain(context.Background(), []string{"--root", dir, "--cache", cache, "--no-model", "--json",
		"--path", filepath.Join(dir, "cart", "discount.go"), "--line", "5", "what does this do"}, &out, &errb)
	if err != nil {
		t.Fatalf("absolute --path: %v\n%s", err, errb.String())
	}
	var res struct {
		Citations []struct {
			Path   string
			Start  int
			Symbol string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res.Citations) == 0 ||
		res.Citations[0].Path != "cart/discount.go" || res.Citations[0].Symbol != "ApplyDiscount" {
		t.Errorf("the cursor's symbol does not come first: %v %+v", err, res.Citations)
	}
}

func TestAskRejectsAnOverLongQuestion(t *testing.T) {
	dir, cache := askWorkspace(t)
	question := "apply a discount " + strings.Repeat("percent ", 600) // over 4,096 bytes
	for _, form := range [][]string{{"--no-model"}, {"--no-model", "--json"}, {"--ollama-host", "127.0.0.1:1"}} {
		var out, errb bytes.Buffer
		args := append(append([]string{"--root", dir, "--cache", cache}, form...), question)
		err := askMain(context.Background(), args, &out, &errb)
		if err == nil || exitCode(err) == 0 {
			t.Fatalf("%v: no error; stdout:\n%s", form, out.String())
		}
		if !strings.Contains(err.Error(), "bytes long, the limit is 4096") {
			t.Errorf("%v: error %q does not give the reason", form, err)
		}
		if strings.Contains(out.String(), "No code in the workspace matched") {
			t.Errorf("%v: answered as if nothing matched:\n%s", form, out.String())
		}
	}
}

package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/fixture"
	"github.com/askls/askls/internal/modeltest"
)

// realSnapshot builds the real index over testdata/workspace.txtar in a
// temp dir and returns a snapshot.
func realSnapshot(t testing.TB) *index.Snapshot {
	t.Helper()
	dir := fixture.Write(t, "testdata/workspace.txtar")
	ctx := context.Background()
	ix, err := index.Open(ctx, index.Options{Roots: []string{dir}, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("index.Open: %v", err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	return ix.Snapshot()
}

// runTool runs one tool on a fresh toolbox and checks that every piece of
// evidence it printed is registered with the exact text of those lines.
func runTool(t *testing.T, snap *index.Snapshot, name string, a args) (string, *citations.Registry, error) {
	t.Helper()
	reg := citations.NewRegistry()
	tb := newToolbox(snap, reg)
	tl, _ := toolByName(name)
	out, _, err := tl.run(tb, context.Background(), a)
	for _, ev := range reg.All() {
		header := fmt.Sprintf("[%d] %s:%d", ev.ID, ev.Path, ev.Start)
		if name == "outline" {
			header = fmt.Sprintf("[%d] %d-", ev.ID, ev.Start)
		}
		if !strings.Contains(out, header) {
			t.Errorf("%s: evidence %d (%s:%d) registered but not shown:\n%s", name, ev.ID, ev.Path, ev.Start, out)
		}
		content, _ := snap.Content(ev.Path)
		text, ok := citations.Lines(content, ev.Start, ev.End)
		if !ok || text != ev.Text || citations.Hash(text) != ev.Hash {
			t.Errorf("%s: evidence %d text differs from %s:%d-%d", name, ev.ID, ev.Path, ev.Start, ev.End)
		}
		// Every shown line is numbered with its real line number.
		for i, l := range strings.Split(strings.TrimSuffix(ev.Text, "\n"), "\n") {
			if name == "read_file" || name == "search_code" {
				if !strings.Contains(out, fmt.Sprintf("%6d  %s\n", ev.Start+i, cutLine(l))) {
					t.Errorf("%s: line %d of %s not shown numbered", name, ev.Start+i, ev.Path)
				}
			}
		}
	}
	return out, reg, err
}

func TestToolsOnRealIndex(t *testing.T) {
	snap := realSnapshot(t)
	tests := []struct {
		tool    string
		args    args
		want    []string // substrings of the result
		wantErr string
		minEv   int
	}{
		{"search_code", args{"query": "total price quantity"}, []string{"cart/cart.go:", "Total"}, "", 1},
		{"search_code", args{"query": "zzqqxx"}, []string{"no results"}, "", 0},
		{"grep", args{"pattern": `func \(c \*Cart\)`}, []string{"cart/cart.go:21: func (c *Cart) Total() (int, error) {"}, "", 1},
		{"grep", args{"pattern": "percent", "path_glob": "cart/*.go"}, []string{"cart/discount.go:"}, "", 3},
		{"grep", args{"pattern": "(unclosed"}, nil, "bad query", 0},
		{"read_file", args{"path": "cart/discount.go", "start_line": 2, "end_line": 5}, []string{"[1] cart/discount.go:2-5 (file has 13 lines)", "日本語"}, "", 1},
		{"read_file", args{"path": "cart/table.go", "start_line": 1, "end_line": 400}, []string{"cart/table.go:1-120", "truncated to 120 lines; read on from line 121"}, "", 1},
		{"read_file", args{"path": "cart/discount.go", "start_line": 50}, nil, "has 13 lines", 0},
		{"read_file", args{"path": "../outside.go"}, nil, "outside the workspace", 0},
		{"read_file", args{"path": "/etc/passwd"}, nil, "outside the workspace", 0},
		{"read_file", args{"path": "discount.go"}, nil, "files with that name: cart/discount.go", 0},
		{"list_files", args{"glob": "cart/*.go"}, []string{"cart/cart.go\n", "cart/discount.go\n", "cart/table.go\n"}, "", 0},
		{"list_files", args{"glob": "**/*.py"}, []string{"tools/gen.py"}, "", 0},
		{"find_symbol", args{"name": "ApplyDiscount"}, []string{"cart/discount.go:5", "ApplyDiscount"}, "", 1},
		{"outline", args{"path": "cart/cart.go"}, []string{"cart/cart.go (", "Total", "Cart", "ErrEmpty"}, "", 3},
		{"outline", args{"path": "tools/gen.py"}, []string{"tools/gen.py (6 lines"}, "", 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.tool, tt.args), func(t *testing.T) {
			out, reg, err := runTool(t, snap, tt.tool, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("result lacks %q:\n%s", w, out)
				}
			}
			if reg.Len() < tt.minEv {
				t.Errorf("%d evidence, want at least %d", reg.Len(), tt.minEv)
			}
			if len(out) > maxToolChars+2*maxLineChars+200 {
				t.Errorf("result of %d chars", len(out))
			}
		})
	}
}

func TestLoopOnRealIndex(t *testing.T) {
	snap := realSnapshot(t)
	f := newFakeOllama(t,
		calls("search_code", `{"query":"discount percent"}`, "find_symbol", `{"name":"Total"}`),
		func(req *modeltest.Request) reply {
			return calls("read_file", `{"path":"cart/discount.go","start_line":3,"end_line":13}`)(req)
		},
		func(req *modeltest.Request) reply {
			id := firstEvidence(lastTool(req))
			return say(fmt.Sprintf("ApplyDiscount clamps the percent [%d] and rounds down [cart/discount.go:12]; Total is elsewhere [99].", id))(req)
		},
	)
	res, err := testAgent(f, Config{}).Ask(context.Background(), snap, Question{Text: "how are discounts applied?"}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, snap)
	if res.Answer != "ApplyDiscount clamps the percent [1] and rounds down [1]; Total is elsewhere." {
		t.Errorf("answer %q", res.Answer)
	}
	if c := res.Citations[0]; c.Path != "cart/discount.go" || c.Start != 3 || c.End != 13 {
		t.Errorf("citation %v", c)
	}

	// Retrieval mode on the same index.
	res, err = testAgent(nil, Config{NoModel: true}).Ask(context.Background(), snap, Question{Text: "apply a discount percent"}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, snap)
	if res.Mode != ModeRetrieval || !strings.Contains(res.Answer, "- cart/discount.go:3-13 `func ApplyDiscount(total, percent int) int` [1]") || !strings.Contains(res.Answer, "// ApplyDiscount lowers the total") {
		t.Errorf("retrieval answer:\n%s", res.Answer)
	}

	// The symbol at the cursor comes first.
	res, err = testAgent(nil, Config{NoModel: true}).Ask(context.Background(), snap, Question{Text: "what does this do", Path: "cart/cart.go", Line: 25}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, snap)
	if len(res.Citations) == 0 || res.Citations[0].Symbol != "Cart.Total" || res.Citations[0].Start != 20 {
		t.Errorf("cursor: citations %v", res.Citations)
	}
}

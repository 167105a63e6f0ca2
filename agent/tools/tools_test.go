package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/indextest"
	"github.com/askls/askls/internal/memsource"
)

// realSnapshot builds the real index over testdata/workspace.txtar in a
// temp dir and returns a snapshot.
func realSnapshot(t testing.TB) *index.Snapshot {
	t.Helper()
	return indextest.Snapshot(t, "../testdata/workspace.txtar")
}

// runTool runs one tool on a fresh Box and checks that every piece of
// evidence it printed is registered with the exact text of those lines.
func runTool(t *testing.T, snap *index.Snapshot, name string, a Args) (string, *citations.Registry, error) {
	t.Helper()
	reg := citations.NewRegistry()
	tb := NewBox(snap, reg)
	out, _, err := tb.Run(context.Background(), name, a)
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
				if !strings.Contains(out, fmt.Sprintf("%6d  %s\n", ev.Start+i, CutLine(l))) {
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
		args    Args
		want    []string // substrings of the result
		wantErr string
		minEv   int
	}{
		{"search_code", Args{"query": "total price quantity"}, []string{"cart/cart.go:", "Total"}, "", 1},
		{"search_code", Args{"query": "zzqqxx"}, []string{"no results"}, "", 0},
		{"grep", Args{"pattern": `func \(c \*Cart\)`}, []string{"cart/cart.go:21: func (c *Cart) Total() (int, error) {"}, "", 1},
		{"grep", Args{"pattern": "percent", "path_glob": "cart/*.go"}, []string{"cart/discount.go:"}, "", 3},
		{"grep", Args{"pattern": "(unclosed"}, nil, "bad query", 0},
		{"read_file", Args{"path": "cart/discount.go", "start_line": 2, "end_line": 5}, []string{"[1] cart/discount.go:2-5 (file has 13 lines)", "日本語"}, "", 1},
		{"read_file", Args{"path": "cart/table.go", "start_line": 1, "end_line": 400}, []string{"cart/table.go:1-120", "truncated to 120 lines; read on from line 121"}, "", 1},
		{"read_file", Args{"path": "cart/discount.go", "start_line": 50}, nil, "has 13 lines", 0},
		{"read_file", Args{"path": "../outside.go"}, nil, "outside the workspace", 0},
		{"read_file", Args{"path": "/etc/passwd"}, nil, "outside the workspace", 0},
		{"read_file", Args{"path": "discount.go"}, nil, "files with that name: cart/discount.go", 0},
		{"list_files", Args{"glob": "cart/*.go"}, []string{"cart/cart.go\n", "cart/discount.go\n", "cart/table.go\n"}, "", 0},
		{"list_files", Args{"glob": "**/*.py"}, []string{"tools/gen.py"}, "", 0},
		{"find_symbol", Args{"name": "ApplyDiscount"}, []string{"cart/discount.go:5", "ApplyDiscount"}, "", 1},
		{"outline", Args{"path": "cart/cart.go"}, []string{"cart/cart.go (", "Total", "Cart", "ErrEmpty"}, "", 3},
		{"outline", Args{"path": "tools/gen.py"}, []string{"tools/gen.py (6 lines"}, "", 0},
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

// longUnit is a file with one function of 60 lines whose lines 40-42
// hold the words "drain" and "idle".
func longUnit() memsource.Source {
	var b strings.Builder
	b.WriteString("package srv\n\n// Shutdown stops the server.\nfunc Shutdown(ctx int) error {\n")
	for l := 5; l <= 63; l++ {
		switch l {
		case 40:
			b.WriteString("\tdrainIdle() // close idle connections first\n")
		case 41, 42:
			b.WriteString("\tclose(idleConns)\n")
		default:
			fmt.Fprintf(&b, "\tstep%d()\n", l)
		}
	}
	b.WriteString("\treturn nil\n}\n")
	return memsource.Source{"srv/server.go": b.String()}
}

func TestHitSpanForTheModel(t *testing.T) {
	src := longUnit()
	tb := NewBox(src, citations.NewRegistry())
	f, err := tb.File("srv/server.go")
	if err != nil {
		t.Fatal(err)
	}
	h := index.Hit{Path: "srv/server.go", Start: 3, End: 65, Symbol: "Shutdown", Kind: "func"}
	s, e := tb.hitSpan("drain idle connections", h, f, hitWindowLines)
	if e-s+1 > hitWindowLines || s > 40 || e < 42 {
		t.Errorf("hitSpan %d-%d, want at most %d lines around 40-42", s, e, hitWindowLines)
	}
	if s, e := tb.hitSpan("zzzz", h, f, hitWindowLines); s != 3 || e != 3+hitWindowLines-1 {
		t.Errorf("no term: %d-%d, want hitWindow's 3-%d", s, e, 3+hitWindowLines-1)
	}
}

// NotCodeIn takes the index's class for a file it holds, and the file's
// name for one it does not (a new open buffer, a source with no index).
func TestNotCodeInFallsBackToTheName(t *testing.T) {
	snap := realSnapshot(t)
	mem := memsource.Source{"notes/plan.md": "# Plan\n", "lib/a.go": "package lib\n"}
	for _, c := range []struct {
		src  Source
		path string
		want bool
	}{
		{mem, "notes/plan.md", true},
		{mem, "lib/a.go", false},
		{mem, "types/api.d.ts", true},
		{snap, "new/NEWS.md", true}, // not in the index
		{snap, "new/x.go", false},
	} {
		if got := NotCodeIn(c.src, c.path); got != c.want {
			t.Errorf("NotCodeIn(%T, %s) = %v, want %v", c.src, c.path, got, c.want)
		}
	}
}

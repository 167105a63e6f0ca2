package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent/retrieval"
	"github.com/askls/askls/agent/tools"

	"github.com/askls/askls/agent/unit"

	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
)

func TestFallbackToRetrieval(t *testing.T) {
	tests := []struct {
		name, model, host, notice string
		noModel                   bool
	}{
		{"model not found", "missing:1b", "", "run `ollama pull missing:1b`", false},
		{"no tools", "tiny:latest", "", "cannot call tools: run `ollama pull qwen3:4b`", false},
		{"unreachable", "qwen3:4b", "http://127.0.0.1:1", "no Ollama server at http://127.0.0.1:1", false},
		{"no model asked", "qwen3:4b", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeOllama(t)
			a := testAgent(f, Config{Model: tt.model, NoModel: tt.noModel})
			if tt.host != "" {
				a = testAgent(nil, Config{Host: tt.host, Model: tt.model})
			}
			got := ask(t, a, project, "how does sniff guess the content type")
			res := got.res
			if res.Mode != ModeRetrieval || res.Model != "" || !strings.Contains(res.Notice, tt.notice) {
				t.Errorf("mode %q model %q notice %q", res.Mode, res.Model, res.Notice)
			}
			if !strings.HasPrefix(res.Answer, retrieval.Header) || !strings.Contains(res.Answer, "ollama pull") {
				t.Errorf("answer:\n%s", res.Answer)
			}
			if res.Refused || len(res.Citations) == 0 || res.Citations[0].Path != "server/server.go" {
				t.Errorf("citations %v", res.Citations)
			}
			if tt.noModel && len(f.Requests()) != 0 {
				t.Errorf("NoModel contacted the model")
			}
			if strings.TrimSpace(got.deltas) != res.Answer {
				t.Errorf("deltas differ")
			}
		})
	}
}

func TestRetrievalShowsDocAndGroups(t *testing.T) {
	got := ask(t, testAgent(nil, Config{NoModel: true}), project, "sniff content type body")
	ans := got.res.Answer
	if !strings.Contains(ans, "- server/server.go:13-19 `func sniff(body []byte) string` [1]") || !strings.Contains(ans, "// sniff guesses the content type of a body.\nfunc sniff(body []byte) string {") {
		t.Errorf("answer:\n%s", ans)
	}
	// A short unit is cited whole, doc comment included.
	c := got.res.Citations[0]
	if c.Start != 13 || c.End != 19 {
		t.Errorf("first citation %v", c)
	}
	none := ask(t, testAgent(nil, Config{NoModel: true}), project, "zzzz qqqq")
	if !none.res.Refused || !strings.Contains(none.res.Answer, "No code in the workspace matched") {
		t.Errorf("no hits: %+v", none.res)
	}
}

func TestRetrievalPutsDefinitionsFirst(t *testing.T) {
	got := ask(t, testAgent(nil, Config{NoModel: true}), project, "where is `Reverse` called from")
	res := got.res
	if len(res.Citations) < 2 || res.Citations[0].Path != "util/strings.go" || res.Citations[0].Start != 3 || res.Citations[0].Symbol != "Reverse" {
		t.Fatalf("citations %v\n%s", res.Citations, res.Answer)
	}
	// Asked where it is called: the calls come right after the definition.
	if !strings.Contains(res.Answer, "### Calls of `util.Reverse` in the workspace (code only, tests left out)\n\n1 call site in 1 file:\n\nutil/ (1):\n- util/use.go:5: `return Reverse(s)` [2]\n") {
		t.Errorf("no call site:\n%s", res.Answer)
	}
	if !strings.Contains(res.Answer, "// Reverse reverses a string rune by rune: héllo 😀 works.\nfunc Reverse(s string) string {") {
		t.Errorf("answer:\n%s", res.Answer)
	}
	n := len(res.Steps)
	if n < 2 || res.Steps[n-2].Tool != "find_symbol" || res.Steps[n-2].Summary != "1 definitions" || res.Steps[n-1].Tool != "find_references" {
		t.Errorf("steps %+v", res.Steps)
	}
}

func TestRetrievalStartsAtTheCursor(t *testing.T) {
	a := testAgent(nil, Config{NoModel: true})
	res, err := a.ask(context.Background(), project, Question{Text: "what does this do", Path: "server/server.go", Line: 16}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, project)
	if len(res.Citations) == 0 || res.Citations[0].Symbol != "sniff" || res.Citations[0].Start != 13 {
		t.Errorf("citations %v\n%s", res.Citations, res.Answer)
	}
}

// fixedHits answers every search with the same hits, shaped as the index
// returns them; the rest is memSource.
type fixedHits struct {
	memSource
	hits []index.Hit
}

func (s fixedHits) Search(ctx context.Context, q string, limit int, f index.Filter) ([]index.Hit, error) {
	return s.hits, ctx.Err()
}

func TestRetrievalShowsTheUnitAHitIsNamedAfter(t *testing.T) {
	// The index merges small units and names the hit after the one that
	// matched (GOROOT's context.go:376-413 is "removeChild", whose
	// declaration is at 399, after parentCancelCtx's).
	src := fixedHits{
		memSource: memSource{"ctx/ctx.go": `package ctx

// parentOf returns the parent.
func parentOf(c int) int {
	return c - 1
}

// removeChild removes a child from its parent.
func removeChild(parent, child int) {
	_ = parent + child
}
`},
		hits: []index.Hit{{Path: "ctx/ctx.go", Start: 3, End: 11, Symbol: "removeChild", Kind: "func", Language: "go"}},
	}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, "how is a child removed from its parent")
	ans := got.res.Answer
	if !strings.Contains(ans, "- ctx/ctx.go:8-11 `func removeChild(parent, child int)` [1]\n```go\n// removeChild removes a child from its parent.\nfunc removeChild(parent, child int) {\n") {
		t.Errorf("the entry named removeChild does not show removeChild:\n%s", ans)
	}
	if i, j := strings.Index(ans, "parentOf"), strings.Index(ans, "removeChild"); i >= 0 && i < j {
		t.Errorf("parentOf's code shown before removeChild's:\n%s", ans)
	}
	if c := got.res.Citations[0]; c.Start != 8 || c.Symbol != "removeChild" {
		t.Errorf("citation %+v, want removeChild from line 8", c)
	}
}

func TestRetrievalSaysWhenAHitIsAWindowOfALongUnit(t *testing.T) {
	// The index cuts a unit over 100 lines into windows named after it;
	// the answer cites the unit the window belongs to (whole here: it is
	// short), labelled with its signature and declaration line.
	src := fixedHits{
		memSource: memSource{"ix/sync.go": `package ix

// sync walks the tree.
func sync() {
	a := 1
	b := a + 1
	_ = b
}
`, "ix/notes.txt": "first\nsecond walk\nthird\n"},
		hits: []index.Hit{
			{Path: "ix/sync.go", Start: 6, End: 8, Symbol: "sync", Kind: "func", Language: "go"},
			{Path: "ix/notes.txt", Start: 2, End: 3},
		},
	}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, "how does the walk go")
	ans := got.res.Answer
	if !strings.Contains(ans, "- ix/sync.go:3-8 `func sync()` [1]\n") {
		t.Errorf("a window of sync is labelled as if sync started there:\n%s", ans)
	}
	if !strings.Contains(ans, "- ix/notes.txt:2-3 [2]\n") {
		t.Errorf("an unnamed hit:\n%s", ans)
	}
}

func TestRetrievalRefusalStreamsNothingElse(t *testing.T) {
	// Nothing matches: the refusal is the whole answer. The header and the
	// how-to line must not stream before it (the terminal showed a header
	// over no entries, then the refusal, and the how-to line twice).
	got := ask(t, testAgent(nil, Config{NoModel: true}), project, "zzzz qqqq")
	if !got.res.Refused {
		t.Fatalf("not refused: %s", got.res.Answer)
	}
	if got.deltas != "" && strings.TrimSpace(got.deltas) != got.res.Answer {
		t.Errorf("streamed %q, then answered %q", got.deltas, got.res.Answer)
	}
	if n := strings.Count(got.deltas+got.res.Answer, "For a synthesized answer"); n > 2 || strings.Count(got.res.Answer, "For a synthesized answer") != 1 {
		t.Errorf("how-to line %d times in deltas+answer:\n%s\n---\n%s", n, got.deltas, got.res.Answer)
	}
}

func TestRetrievalKeepsTheDeclarationUnderALongDocComment(t *testing.T) {
	// GOROOT's ServeContent and writeFrame: docs of 9 and 31 lines showed
	// their first 8 lines and never the declaration.
	var doc strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&doc, "// line %d of the doc.\n", i)
	}
	src := fixedHits{
		memSource: memSource{"srv/serve.go": "package srv\n\n" + doc.String() + "func ServeContent(name string) {\n\t_ = name\n}\n"},
		hits:      []index.Hit{{Path: "srv/serve.go", Start: 3, End: 17, Symbol: "ServeContent", Kind: "func", Language: "go"}},
	}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, "how is content served")
	// The unit is 15 lines, 12 of them doc: the excerpt is the code that
	// matches (the declaration and its body); the lead quotes the doc.
	want := "- srv/serve.go:15-17 `func ServeContent(name string)` [1]\n```go\nfunc ServeContent(name string) {\n"
	if !strings.Contains(got.res.Answer, want) {
		t.Errorf("answer lacks\n%s\nin:\n%s", want, got.res.Answer)
	}
	if c := got.res.Citations[0]; c.Start != 15 || c.End != 17 {
		t.Errorf("citation %+v, want lines 15-17", c)
	}
}

func TestMaxQuestionBytesIsTheIndexLimit(t *testing.T) {
	snap := realSnapshot(t)
	ctx := context.Background()
	at := strings.Repeat("cart ", MaxQuestionBytes/5) + strings.Repeat("x", MaxQuestionBytes%5)
	if _, err := snap.Search(ctx, at, 5, index.Filter{}); errors.Is(err, index.ErrBadQuery) {
		t.Errorf("a query of MaxQuestionBytes is refused by the index: %v", err)
	}
	if _, err := snap.Search(ctx, at+"y", 5, index.Filter{}); !errors.Is(err, index.ErrBadQuery) {
		t.Errorf("a query of MaxQuestionBytes+1 is taken by the index (err %v): MaxQuestionBytes is not its limit", err)
	}
	a := New(Config{NoModel: true})
	if _, err := a.Ask(ctx, snap, Question{Text: at + "y"}, Events{}); !errors.Is(err, index.ErrBadQuery) {
		t.Errorf("Ask of an over-long question: err %v, want index.ErrBadQuery", err)
	}
}

func TestCallSitesAreOnlyCode(t *testing.T) {
	src := memSource{
		"lib/rev.go":      "package lib\n\n// Reverse reverses s.\nfunc Reverse(s string) string {\n\treturn s\n}\n",
		"lib/use.go":      "package lib\n\n// Calling Reverse(x) here is a comment.\nfunc use() string {\n\tmsg := \"Reverse(not a call)\"\n\t_ = `Reverse(raw)`\n\t/* Reverse(block) */\n\treturn Reverse(msg)\n}\n",
		"lib/rev_test.go": "package lib\n\nfunc TestR() { Reverse(\"a\") }\n",
	}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, "who calls `Reverse`")
	ans := got.res.Answer
	if !strings.Contains(ans, "- lib/use.go:8: `return Reverse(msg)`") {
		t.Errorf("the real call is missing:\n%s", ans)
	}
	for _, line := range []string{"lib/use.go:3:", "lib/use.go:5:", "lib/use.go:6:", "lib/use.go:7:", "lib/rev_test.go"} {
		if strings.Contains(ans, line) {
			t.Errorf("%s listed as a call:\n%s", line, ans)
		}
	}
}

func TestProseRangesOfOtherLanguages(t *testing.T) {
	for _, tt := range []struct {
		path, content string
		calls, prose  []int // lines with a call in code, lines where the name is only in prose
	}{
		{"m/codec.py", "def dumps(obj):\n    \"\"\"Serialize obj.\n\n    >>> dumps({'a': 1})\n    '{\"a\": 1}'\n    \"\"\"\n    return encode(obj)  # dumps(obj) in a comment\n\ndef f(x):\n    return dumps(x)\n", []int{10}, []int{4, 7}},
		{"m/util.js", "/**\n * Formats a date: format(new Date())\n */\nfunction format(d) {\n  const s = 'format(x)';\n  return `${format2(d)}`;\n}\nconst y = format(today); // format(z)\n", []int{8}, []int{2, 5}},
		{"m/lib.rs", "fn parse<'a>(s: &'a str) -> &'a str {\n    // parse(s) again\n    let c = '(';\n    parse(s)\n}\n", []int{4}, []int{2}},
	} {
		pr := tools.ScanProse(tt.path, []byte(tt.content))
		lines := strings.Split(tt.content, "\n")
		nameAt := func(l int, find func(s, sub string) int) int {
			for _, name := range []string{"dumps(", "format(", "parse("} {
				if i := find(lines[l-1], name); i >= 0 {
					return i
				}
			}
			t.Fatalf("%s:%d holds no name", tt.path, l)
			return 0
		}
		for _, l := range tt.calls {
			if pr.In(l, nameAt(l, strings.Index)) {
				t.Errorf("%s:%d: the call is taken for prose", tt.path, l)
			}
		}
		for _, l := range tt.prose {
			if !pr.In(l, nameAt(l, strings.LastIndex)) {
				t.Errorf("%s:%d: prose taken for a call", tt.path, l)
			}
		}
	}
}

// longUnit is a file with one function of 60 lines whose lines 40-42
// hold the words "drain" and "idle".
func longUnit() memSource {
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
	return memSource{"srv/server.go": b.String()}
}

func TestRetrievalCitesAWindowOfALongUnit(t *testing.T) {
	src := fixedHits{memSource: longUnit(), hits: []index.Hit{{Path: "srv/server.go", Start: 3, End: 65, Symbol: "Shutdown", Kind: "func", Language: "go"}}}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, "how are idle connections drained on shutdown")
	c := got.res.Citations[0]
	if c.End-c.Start+1 > unit.MaxSpanLines || c.Start > 40 || c.End < 42 || c.Start < 3 || c.End > 65 {
		t.Errorf("citation %d-%d, want at most %d lines inside 3-65 around 40-42", c.Start, c.End, unit.MaxSpanLines)
	}
	label := fmt.Sprintf("- srv/server.go:%d-%d `func Shutdown(ctx int) error` (declared at line 4) [1]", c.Start, c.End)
	if !strings.Contains(got.res.Answer, label) {
		t.Errorf("label %q missing:\n%s", label, got.res.Answer)
	}
}

func TestChooseSpan(t *testing.T) {
	src := longUnit()
	f := citations.NewLineIndex([]byte(src["srv/server.go"]))
	terms := unit.QuestionTerms("idle drain")
	ft := unit.NewFileTerms(f, "srv/server.go", terms)
	w := []float64{1, 1}
	long := unit.Unit{Path: "srv/server.go", Start: 3, End: 65, Decl: 4}
	if sp := unit.ChooseSpan(ft, long, w, unit.MaxSpanLines); sp.Start < 38 || sp.End > 44 || sp.End-sp.Start+1 > unit.MaxSpanLines || sp.Score != 1 {
		t.Errorf("long unit: span %+v, want 38-44 at most, score 1", sp)
	}
	short := unit.Unit{Path: "srv/server.go", Start: 38, End: 45, Decl: 38}
	if sp := unit.ChooseSpan(ft, short, w, unit.MaxSpanLines); sp.Start != 38 || sp.End != 45 {
		t.Errorf("short unit: span %+v, want it whole", sp)
	}
}

func TestRetrievalWeakLine(t *testing.T) {
	a := testAgent(nil, Config{NoModel: true})
	weak := ask(t, a, project, "where is the Brotli decoder for the body")
	if !weak.res.Weak || !strings.HasPrefix(weak.res.Answer, retrieval.WeakLine+"\n") || weak.res.Refused {
		t.Errorf("a question naming what the code lacks: weak %v, answer:\n%s", weak.res.Weak, weak.res.Answer)
	}
	// A weak answer shows the closest three entries, no list of more.
	many := memSource{}
	for i := 0; i < 6; i++ {
		many[fmt.Sprintf("dec/d%d.go", i)] = fmt.Sprintf("package dec\n\n// decode%d reads the body with a decoder.\nfunc decode%d(body []byte) []byte {\n\treturn body\n}\n", i, i)
	}
	w := ask(t, a, many, "where is the Brotli decoder for the body")
	if !w.res.Weak || len(w.res.Citations) != retrieval.ShownEntries || strings.Contains(w.res.Answer, "Also relevant:") {
		t.Errorf("a weak answer (weak %v) with %d citations:\n%s", w.res.Weak, len(w.res.Citations), w.res.Answer)
	}
	strong := ask(t, a, project, "how does sniff guess the content type of a body")
	if strong.res.Weak || strings.Contains(strong.res.Answer, retrieval.WeakLine) {
		t.Errorf("a question the code answers: weak %v, answer:\n%s", strong.res.Weak, strong.res.Answer)
	}
	b, err := json.Marshal(weak.res)
	if err != nil || !strings.Contains(string(b), `"weak":true`) {
		t.Errorf("JSON lacks weak: %s", b)
	}
}

// testFirstHits puts the test files first unless the filter leaves them
// out, as a ranking that favours tests would.
type testFirstHits struct{ memSource }

func (s testFirstHits) Search(ctx context.Context, q string, limit int, f index.Filter) ([]index.Hit, error) {
	hits, err := s.memSource.Search(ctx, q, limit, f)
	var tests, rest []index.Hit
	for _, h := range hits {
		if tools.IsTestPath(h.Path) {
			tests = append(tests, h)
		} else {
			rest = append(rest, h)
		}
	}
	if f.NoTests {
		return rest, err
	}
	return append(tests, rest...), err
}

func TestRetrievalShowsImplementationBeforeTests(t *testing.T) {
	src := testFirstHits{memSource{
		"cart/total.go":      "package cart\n\n// Total sums the cart.\nfunc Total(items []int) int {\n\tsum := 0\n\tfor _, it := range items {\n\t\tsum += it\n\t}\n\treturn sum\n}\n",
		"cart/total_test.go": "package cart\n\n// TestTotal sums a cart.\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
	}}
	a := testAgent(nil, Config{NoModel: true})
	impl := ask(t, a, src, "how does the cart sum its items")
	for _, c := range impl.res.Citations {
		if tools.IsTestPath(c.Path) {
			t.Errorf("a question about behaviour cites a test: %v", impl.res.Citations)
		}
	}
	tests := ask(t, a, src, "which tests check the cart sum")
	found := false
	for _, c := range tests.res.Citations {
		found = found || c.Path == "cart/total_test.go"
	}
	if !found {
		t.Errorf("a question about tests does not cite the test: %v", tests.res.Citations)
	}
}

// The cursor is where a question was asked, not its answer: a question
// about other code, asked from sniff, opens with the code that answers;
// one that holds a word of the unit at the cursor still starts there.
func TestRetrievalCursorIsContextUnlessTheQuestionIsAboutIt(t *testing.T) {
	a := testAgent(nil, Config{NoModel: true})
	res, err := a.ask(context.Background(), project, Question{Text: "how does a string get reversed rune by rune", Path: "server/server.go", Line: 16}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, res, project)
	if len(res.Citations) == 0 || res.Citations[0].Path != "util/strings.go" {
		t.Errorf("citations %v, want util/strings.go first", res.Citations)
	}
	res, err = a.ask(context.Background(), project, Question{Text: "why is an empty body plain text", Path: "server/server.go", Line: 16}, Events{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Citations) == 0 || res.Citations[0].Symbol != "sniff" {
		t.Errorf("a question about the code at the cursor: citations %v, want sniff first", res.Citations)
	}
}

// pastEnd is a source whose outline's last unit runs past the end of
// its file, as a C outline's did for a function followed by an #endif
// at the end of zstd_decompress_block.c.
type pastEnd struct{ memSource }

func (p pastEnd) Outline(path string) ([]index.Symbol, error) {
	syms, err := p.memSource.Outline(path)
	for i := range syms {
		syms[i].EndLine += 5
	}
	return syms, err
}

// A unit whose range runs past the end of its file is shown up to the
// file's end; nothing panics.
func TestRetrievalUnitPastTheEndOfItsFile(t *testing.T) {
	var body strings.Builder
	body.WriteString("package big\n\n// Compress squeezes the block.\nfunc Compress(src []byte) []byte {\n")
	for i := 0; i < 40; i++ {
		body.WriteString("\tsrc = squeeze(src) // squeeze the block again\n")
	}
	body.WriteString("\treturn src\n}\n")
	src := pastEnd{memSource{"big/big.go": body.String()}}
	got := ask(t, testAgent(nil, Config{NoModel: true}), src, "how does compress squeeze the block")
	if len(got.res.Citations) == 0 || got.res.Citations[0].End > 46 {
		t.Errorf("citations %v, want one within the file's 46 lines", got.res.Citations)
	}
}

// A name declared in the project and again in an example and a vendored
// copy is defined by the project's declaration; an example's is its
// definition only when the question asks about examples.
func TestRetrievalDefinitionsLeaveExamplesAndVendoredCodeOut(t *testing.T) {
	src := memSource{
		"examples/basic/basic.go": "package basic\n\ntype Basic struct{ n int }\n\n// Prepare fills the example's case.\nfunc (b *Basic) Prepare() { b.n = 1 }\n",
		"vendor/lib/lib.go":       "package lib\n\ntype L struct{ n int }\n\n// Prepare of a bundled library.\nfunc (l *L) Prepare() { l.n = 2 }\n",
		"suite/suite.go":          "package suite\n\ntype Suite struct{ ready bool }\n\n// Prepare prepares the suite before each case runs.\nfunc (s *Suite) Prepare() { s.ready = true }\n",
	}
	first := func(q string) string {
		t.Helper()
		res := ask(t, testAgent(nil, Config{NoModel: true}), src, q).res
		if len(res.Citations) == 0 {
			t.Fatalf("%q: no citations:\n%s", q, res.Answer)
		}
		return res.Citations[0].Path
	}
	if got := first("what does `Prepare` prepare before each case?"); got != "suite/suite.go" {
		t.Errorf("first citation in %s, want suite/suite.go", got)
	}
	if got := first("what does the example's `Prepare` do?"); got != "examples/basic/basic.go" {
		t.Errorf("asked about the example: first citation in %s, want examples/basic/basic.go", got)
	}
}

// A class named in a question is defined by the class, not by its
// constructors, which share its name.
func TestRetrievalDefinitionOfAClassIsNotItsConstructor(t *testing.T) {
	snap := fixtureSnapshot(t, "constructors.txtar")
	res := askThreadChecked(t, snap, "what does a `Pool` hold?")[0]
	for _, c := range res.Citations[:min(2, len(res.Citations))] {
		if c.Start == 8 || c.Start == 13 { // the two constructors, with their doc comments
			t.Errorf("a constructor cited as the definition: %v\n%s", res.Citations, res.Answer)
		}
	}
	if len(res.Citations) == 0 || res.Citations[0].Path != "src/Pool.java" || res.Citations[0].Start > 4 {
		t.Errorf("first citation %v, want the class\n%s", res.Citations, res.Answer)
	}
}

// A method named in a question is defined by its implementation; the
// interface's declaration comes after it. A class named with its method
// is not cited as a window over the method.
func TestRetrievalDefinitionsPutTheBodyFirst(t *testing.T) {
	snap := fixtureSnapshot(t, "declared.txtar")
	res := askThreadChecked(t, snap, "how does `publish` split a message into chunks?")[0]
	if len(res.Citations) < 2 || res.Citations[0].Path != "impl/ChannelImpl.java" || res.Citations[1].Path != "api/Channel.java" {
		t.Errorf("citations %v: want the implementation, then the interface's method\n%s", res.Citations, res.Answer)
	}
	res = askThreadChecked(t, snap, "how does a `Channel` send a message with `publish`?")[0]
	for i, a := range res.Citations {
		for _, b := range res.Citations[i+1:] {
			if a.Path == b.Path && a.Start <= b.End && b.Start <= a.End {
				t.Errorf("citations %v and %v overlap\n%s", a, b, res.Answer)
			}
		}
	}
}

// A file the index reads as prose (a Texinfo manual: no file-name rule
// knows .texi, its language is text) counts half in the answer as it
// does in the search: the code that keeps the queue sorted comes before
// the manual's paragraph on it.
func TestRetrievalHalvesWhatTheIndexCallsProse(t *testing.T) {
	snap := fixtureSnapshot(t, "proseclass.txtar")
	if tools.NotCode("manual/sched.texi") || !tools.NotCodeIn(snap, "manual/sched.texi") || tools.NotCodeIn(snap, "sched/pop.go") {
		t.Fatalf("the manual is prose only to the index: NotCode %v, NotCodeIn %v", tools.NotCode("manual/sched.texi"), tools.NotCodeIn(snap, "manual/sched.texi"))
	}
	res := askThreadChecked(t, snap, "how does the scheduler keep waiting jobs sorted by priority in the queue?")[0]
	var got []string
	for _, c := range res.Citations {
		got = append(got, c.Path)
	}
	if len(got) < 3 || got[0] != "sched/queue.go" || got[1] != "sched/pop.go" || got[2] != "manual/sched.texi" {
		t.Errorf("citations %v, want the queue's code, then the manual\n%s", got, res.Answer)
	}
}

// A name written with "::" is defined by the method of the type named
// like its qualifier (a C++ method defined out of class, a Rust method
// in an impl), not by the other type's method of that name.
func TestRetrievalDefinitionOfAScopedName(t *testing.T) {
	snap := fixtureSnapshot(t, "scoped.txtar")
	for _, c := range []struct{ q, name, want string }{
		{"how does canvas::stroke lay the paint?", "canvas::stroke", "src/canvas.cc"},
		{"how does `sketch::stroke` keep the path?", "sketch::stroke", "src/sketch.cc"},
		{"what does Pot::brew give back?", "Pot::brew", "src/pot.rs"},
		{"how much water is left after crate::kettle::brew runs?", "kettle::brew", "src/kettle.rs"},
	} {
		res := askThreadChecked(t, snap, c.q)[0]
		if len(res.Citations) == 0 || res.Citations[0].Path != c.want {
			t.Errorf("%q: citations %v, want %s first\n%s", c.q, res.Citations, c.want, res.Answer)
		}
		found := false
		for _, s := range res.Steps {
			found = found || s.Tool == "find_symbol" && s.Args["name"] == c.name && s.Summary == "1 definitions"
		}
		if !found {
			t.Errorf("%q: no find_symbol step found the one definition of %s: %+v", c.q, c.name, res.Steps)
		}
	}
}

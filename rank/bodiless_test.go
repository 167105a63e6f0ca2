package rank

import (
	"testing"

	"github.com/askls/askls/index/chunk"
)

// A method declared without a body (an interface's, a prototype) is told
// from a function with one, whichever line its body opens on.
func TestBodiless(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, kind, text string
		want             bool
	}{
		{"interface method", "method", "/**\n * Publishes a message.\n */\nCompletableFuture<Void> publishText(CharSequence data, boolean last);", true},
		{"C prototype", "func", "/* frees p */\nvoid pool_free(struct pool *p);", true},
		{"Rust trait method", "method", "/// Polls for readiness.\nfn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<()>;", true},
		{"Java method", "method", "public void run() {\n    task.run();\n}", false},
		{"C function, brace on its own line", "func", "int main(void)\n{\n\treturn run();\n}", false},
		{"a type", "type", "struct pool;", false},
		{"a field's call", "func", "x = compute();", true},
	} {
		c := Cand{Meta: chunk.Meta{Kind: tc.kind, Start: 1}, Text: []byte(tc.text)}
		if got := Bodiless(&c); got != tc.want {
			t.Errorf("%s: Bodiless = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// In a question, the definition of a name the question writes as code is
// the unit with a body: the interface's method keeps its score, the
// implementation takes DefinitionBoost. A lookup of the name finds both.
func TestDefinitionBoostGoesToTheUnitWithABody(t *testing.T) {
	t.Parallel()
	iface := Cand{Path: "api/Topic.java", Meta: chunk.Meta{Symbol: "Topic.publishText", Kind: "method", Start: 1}, Score: 1,
		Text: []byte("/** Publishes text. */\nvoid publishText(String s);")}
	impl := Cand{Path: "impl/TopicImpl.java", Meta: chunk.Meta{Symbol: "TopicImpl.publishText", Kind: "method", Start: 1}, Score: 1,
		Text: []byte("public void publishText(String s) {\n    parts.add(encode(s));\n}")}
	prm := DefaultParams()
	read := func([]Cand) {}
	p, err := ParseQuery("how does a message sent with publishText become parts")
	if err != nil {
		t.Fatal(err)
	}
	cands := []Cand{iface, impl}
	Exact(p, &prm, cands, 10, read)
	for _, c := range cands {
		want := 1.0
		if c.Path == impl.Path {
			want = prm.DefinitionBoost
		}
		if c.Score != want {
			t.Errorf("question: %s scores %v, want %v", c.Path, c.Score, want)
		}
	}
	p, err = ParseQuery("publishText")
	if err != nil {
		t.Fatal(err)
	}
	cands = []Cand{iface, impl}
	Exact(p, &prm, cands, 10, read)
	for _, c := range cands {
		if c.Score != prm.DefinitionBoost {
			t.Errorf("lookup: %s scores %v, want %v", c.Path, c.Score, prm.DefinitionBoost)
		}
	}
}

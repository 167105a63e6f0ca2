package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/citations"
	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/indextest"
	"github.com/askls/askls/internal/modeltest"
)

// realSnapshot builds the real index over testdata/workspace.txtar in a
// temp dir and returns a snapshot.
func realSnapshot(t testing.TB) *index.Snapshot {
	t.Helper()
	return indextest.Snapshot(t, "testdata/workspace.txtar")
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

// runTool runs one tool on a fresh Box (the tools' own tests check
// its evidence, package tools).
func runTool(t *testing.T, snap *index.Snapshot, name string, a tools.Args) (string, *citations.Registry, error) {
	t.Helper()
	reg := citations.NewRegistry()
	out, _, err := tools.NewBox(snap, reg).Run(context.Background(), name, a)
	return out, reg, err
}

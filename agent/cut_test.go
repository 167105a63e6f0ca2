package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askls/askls/internal/modeltest"
)

// bigSource is one Go file of 3,002 lines.
func bigSource() memSource {
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := 3; i <= 3002; i++ {
		fmt.Fprintf(&b, "var V%04d = %d // line %d of big.go, padded to look like code\n", i, i, i)
	}
	return memSource{"big.go": b.String()}
}

// TestCitationsOnlyOfLinesTheModelSaw: a read_file result cut by the
// context budget inside its numbered lines keeps only the lines shown as
// evidence; citing a line that was cut off (by number or by path) names
// nothing, while the lines shown stay citable.
func TestCitationsOnlyOfLinesTheModelSaw(t *testing.T) {
	var shown int
	f := newFakeOllama(t,
		calls("read_file", `{"path":"big.go","start_line":1,"end_line":120}`),
		func(req *modeltest.Request) reply {
			tool := lastTool(req)
			if !strings.Contains(tool, "(cut: the context budget is used") {
				t.Fatalf("not cut: %q", tool)
			}
			for _, line := range strings.Split(tool, "\n") {
				if n, ok := numberedLine(line); ok {
					shown = n
				}
			}
			return say(fmt.Sprintf("Shown [big.go:%d] and [1]; cut [big.go:100] and [big.go:%d-%d].", shown, shown, shown+1))(req)
		},
	)
	res := ask(t, testAgent(f, Config{MaxContextChars: len(systemPrompt) + 1500}), bigSource(), "what is V0100?").res
	if shown == 0 || shown >= 100 {
		t.Fatalf("the cut showed up to line %d", shown)
	}
	if res.Answer != "Shown [1] and [1]; cut and." {
		t.Errorf("answer %q", res.Answer)
	}
	if len(res.Citations) != 1 || res.Citations[0].Start != 1 || res.Citations[0].End != shown {
		t.Errorf("citations %+v, want big.go:1-%d (what the model saw)", res.Citations, shown)
	}
}

package agent

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/askls/askls/agent/tools"
	"github.com/askls/askls/internal/indextest"

	"github.com/askls/askls/index"
)

// labelsSnapshot is the real index over testdata/labels.txtar: a Go const
// holding a long raw string beside a shell script.
func labelsSnapshot(t *testing.T) *index.Snapshot {
	t.Helper()
	return indextest.Snapshot(t, "testdata/labels.txtar")
}

// askThreadChecked asks each question as the next turn of one thread in
// retrieval mode and checks every answer's labels and the thread's
// numbers.
func askThreadChecked(t *testing.T, src tools.Source, questions ...string) []*Result {
	t.Helper()
	a := testAgent(nil, Config{NoModel: true})
	th := NewThread("/w")
	var out []*Result
	for _, q := range questions {
		res, err := a.askThread(context.Background(), src, th, Question{Text: q}, Events{})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		checkResult(t, res, src)
		out = append(out, res)
	}
	checkThread(t, th)
	return out
}

// checkThread: in every turn, each citation maps to its own thread
// evidence number, and that evidence is the citation's place.
func checkThread(t *testing.T, th *Thread) {
	t.Helper()
	for i, turn := range th.Turns {
		seen := map[int]int{}
		for k, c := range turn.Citations {
			n := turn.Evidence[k]
			if n < 1 || n > len(th.Evidence) {
				t.Errorf("turn %d: citation [%d] %s has thread number %d of %d", i+1, c.N, c, n, len(th.Evidence))
				continue
			}
			if other, ok := seen[n]; ok {
				t.Errorf("turn %d: citations [%d] and [%d] share thread number %d", i+1, other, c.N, n)
			}
			seen[n] = c.N
			if e := th.Evidence[n-1]; e.N != n || e.Path != c.Path || e.Start != c.Start || e.End != c.End {
				t.Errorf("turn %d: citation %s is thread evidence %d, which is %s:%d-%d", i+1, c, n, e.Path, e.Start, e.End)
			}
		}
	}
}

// Issue 25: the label of `const Usage = `…“ (its signature cut inside the
// raw string) left its marker inside an unclosed code span, unchecked:
// the reader saw [7] over a citation list whose [7] was a bash function,
// and in a follow-up [10] over a list of 9.
func TestLabelsOfARawStringConstAreTrue(t *testing.T) {
	snap := labelsSnapshot(t)
	res := askThreadChecked(t, snap,
		"what usage text lists the options and the environment variables like FZF_DEFAULT_OPTS",
		"how are default options loaded from environment variables",
		"who calls that?",
		"where is it used?",
	)
	// (Before: "- const Usage = `usage: fzf [options] …, lines 26-37 [2]",
	// its [2] left raw inside the code span, and the bash function's
	// entry renumbered [2].)
	ans := res[0].Answer
	i := strings.Index(ans, "- src/options/options.go:26-37 ``const Usage = `usage: fzf [options]")
	if i < 0 {
		t.Fatalf("the Usage const is not an entry:\n%s", ans)
	}
	line := ans[i:]
	line = line[:strings.IndexByte(line, '\n')]
	// Its marker follows the closed code span and is the Usage const's
	// citation (which number it has depends on the ranking).
	m := regexp.MustCompile("…`` \\(declared at line 15\\) \\[(\\d+)\\]$").FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the Usage entry's label is %q, want its signature in a closed code span, then its marker", line)
	}
	n, _ := strconv.Atoi(m[1])
	found := false
	for _, c := range res[0].Citations {
		if c.N == n {
			found = c.Path == "src/options/options.go" && c.Start <= 26 && c.End >= 26
			break
		}
	}
	if !found {
		t.Errorf("the Usage entry's marker [%d] is not its citation: %v", n, res[0].Citations)
	}
}

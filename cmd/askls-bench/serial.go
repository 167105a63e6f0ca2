package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// runSerial reads the events of an execution trace as `go tool trace
// -d=parsed` prints them and reports how much of the wall time one
// application goroutine alone ran (the serial part), by stage of the sync
// (its runtime/trace regions) and by kind of goroutine, and, when the
// trace holds CPU samples (a test run with -trace and -cpuprofile), what
// the samples taken then were doing. docs/kernel.md ("Where the cold
// build's time goes") gives the commands.
func runSerial(args []string) error {
	fs := flag.NewFlagSet("serial", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: go tool trace -d=parsed TRACE | askls-bench serial")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	st := newSerialStats()
	if err := st.read(os.Stdin); err != nil {
		return fmt.Errorf("reading the trace's events: %w", err)
	}
	st.report(os.Stdout)
	return nil
}

// traceEvent is one event of the dump: its header line and its stacks
// (function names, innermost first).
type traceEvent struct {
	kind       string
	time       int64
	g, goid    int64
	from, to   string
	region     string
	stack      []string
	transition []string
}

// serialStats follows which goroutines run, and sums wall time by how many
// application goroutines run (the runtime's own, such as GC workers and
// the tracer, are not counted).
type serialStats struct {
	start, last int64
	kind        map[int64]string // goroutine → the function it started in
	running     map[int64]bool
	regions     map[int64][]string // goroutine → its open regions
	syncG       int64              // the goroutine whose regions are the stages
	stage       string
	stages      []string
	byCount     [3]int64             // wall with 0, 1, 2+ application goroutines running
	histogram   [9]int64             // wall with 0, 1, ..., 8+ running
	byStage     map[string]*[4]int64 // stage → the same, and its wall
	serialKind  map[string]int64     // "stage | goroutine kind" → serial wall
	samples     map[string]*[2]int   // sample's stage → samples, samples while serial
	appRunning  int
	serialOwner string
}

func newSerialStats() *serialStats {
	return &serialStats{kind: map[int64]string{}, running: map[int64]bool{}, regions: map[int64][]string{},
		stage: "before the sync", byStage: map[string]*[4]int64{}, serialKind: map[string]int64{},
		samples: map[string]*[2]int{}}
}

func (st *serialStats) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var cur *traceEvent
	var stack *[]string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "M="):
			if cur != nil {
				st.take(cur)
			}
			cur, stack = parseEventLine(line), nil
		case cur == nil:
		case line == "Stack=":
			stack = &cur.stack
		case line == "TransitionStack=":
			stack = &cur.transition
		case stack != nil && strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "\t\t"):
			fn, _, _ := strings.Cut(strings.TrimSpace(line), " @ ")
			*stack = append(*stack, fn)
		}
	}
	if cur != nil {
		st.take(cur)
	}
	return sc.Err()
}

// parseEventLine reads an event's header: "M=.. P=.. G=.. Kind Time=..
// [GoID=..] [From->To] [Type="..."]".
func parseEventLine(line string) *traceEvent {
	f := strings.Fields(line)
	e := &traceEvent{}
	if len(f) < 4 {
		return e
	}
	e.kind = f[3]
	e.g, _ = strconv.ParseInt(strings.TrimPrefix(f[2], "G="), 10, 64)
	for _, kv := range f[4:] {
		k, v, ok := strings.Cut(kv, "=")
		switch {
		case !ok && strings.Contains(kv, "->"):
			e.from, e.to, _ = strings.Cut(kv, "->")
		case k == "Time":
			e.time, _ = strconv.ParseInt(v, 10, 64)
		case k == "GoID":
			e.goid, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	if _, typ, ok := strings.Cut(line, "Type="); ok {
		e.region = strings.Trim(typ, `"`)
	}
	return e
}

func (st *serialStats) take(e *traceEvent) {
	if e.time == 0 {
		return
	}
	if st.start == 0 {
		st.start, st.last = e.time, e.time
	}
	st.advance(e.time)
	switch e.kind {
	case "StateTransition":
		st.transition(e)
	case "RegionBegin", "RegionEnd":
		st.regionEvent(e)
	case "StackSample":
		s := st.samples[sampleStage(e.stack)]
		if s == nil {
			s = &[2]int{}
			st.samples[sampleStage(e.stack)] = s
		}
		s[0]++
		if st.appRunning <= 1 {
			s[1]++
		}
	}
}

// advance adds the time since the last event to the sums.
func (st *serialStats) advance(t int64) {
	d := t - st.last
	if d <= 0 {
		return
	}
	st.last = t
	st.histogram[min(st.appRunning, 8)] += d
	n := min(st.appRunning, 2)
	st.byCount[n] += d
	s := st.byStage[st.stage]
	if s == nil {
		s = &[4]int64{}
		st.byStage[st.stage] = s
		st.stages = append(st.stages, st.stage)
	}
	s[n] += d
	s[3] += d
	if n == 1 {
		st.serialKind[st.stage+" | "+st.serialOwner] += d
	}
}

func (st *serialStats) transition(e *traceEvent) {
	if e.goid == 0 {
		return
	}
	if st.kind[e.goid] == "" && len(e.transition) > 0 {
		st.kind[e.goid] = e.transition[len(e.transition)-1] // the outermost frame
	}
	if e.to == "Running" {
		st.running[e.goid] = true
	} else if e.from == "Running" {
		delete(st.running, e.goid)
	}
	st.appRunning = 0
	for g := range st.running {
		k := st.kind[g]
		if strings.HasPrefix(k, "runtime.") {
			continue // GC workers, the tracer, the scavenger
		}
		st.appRunning++
		st.serialOwner = shortKind(k)
	}
}

// regionEvent follows the regions of the goroutine that opened the first
// "sync: " region: its innermost open region is the stage.
func (st *serialStats) regionEvent(e *traceEvent) {
	if !strings.HasPrefix(e.region, "sync: ") {
		return
	}
	if st.syncG == 0 && e.kind == "RegionBegin" {
		st.syncG = e.g
	}
	if e.g != st.syncG {
		return
	}
	open := st.regions[e.g]
	if e.kind == "RegionBegin" {
		open = append(open, e.region)
	} else if len(open) > 0 {
		open = open[:len(open)-1]
	}
	st.regions[e.g] = open
	st.stage = "between stages"
	if len(open) > 0 {
		st.stage = open[len(open)-1]
	}
}

func shortKind(k string) string {
	if k == "" {
		return "(started before the trace)"
	}
	if i := strings.LastIndexByte(k, '/'); i >= 0 {
		return k[i+1:]
	}
	return k
}

// sampleStages name what a CPU sample was doing by a function on its
// stack, the first that matches in this order.
var sampleStages = []struct {
	name  string
	funcs []string
}{
	{"tracing itself", []string{"runtime.traceReadCPU", "runtime.traceAdvance"}},
	{"collector", []string{"runtime.gcBgMarkWorker", "runtime.gcAssistAlloc", "runtime.bgsweep", "runtime.bgscavenge", "runtime.gcDrain"}},
	{"merge (settle, scorch's merger)", []string{"scorch.(*Scorch).mergerLoop", "store.Settle"}},
	{"persist", []string{"scorch.(*Scorch).persisterLoop"}},
	{"introduce", []string{"scorch.(*Scorch).introducerLoop"}},
	{"analyse", []string{"index.(*codeField).Analyze", "index.analyseDocs", "bleve_index_api.AnalysisWorker"}},
	{"segment build (bleve Batch)", []string{"scorch.(*Scorch).Batch", "zapx"}},
	{"walk", []string{"index/walk.Walk", "walk.(*walker)", "index.(*Index).walkRoots"}},
	{"symbols file", []string{"store.(*SymWriter)"}},
	{"manifest", []string{"store.SaveManifest", "store.LoadManifest", "index.(*Index).saveRoot", "index.(*Index).reloadEntries"}},
	{"verify", []string{"index.(*Index).verifyRoot"}},
	{"chunk", []string{"index/chunk.", "go/parser", "go/scanner"}},
	{"read + hash", []string{"walk.ReadCapped", "blake3", "index.(*Index).prepare", "index.(*Index).readOne"}},
	{"batch assembly", []string{"index.(*submitter)", "bleve.(*Batch)"}},
	{"symbol table", []string{"store.(*symBase)", "SymbolTable"}},
}

func sampleStage(stack []string) string {
	for _, s := range sampleStages {
		for _, f := range stack {
			for _, p := range s.funcs {
				if strings.Contains(f, p) {
					return s.name
				}
			}
		}
	}
	return "other"
}

func (st *serialStats) report(w io.Writer) {
	total := st.last - st.start
	sec := func(d int64) string { return fmt.Sprintf("%.2f s", float64(d)/1e9) }
	pct := func(d int64) string { return fmt.Sprintf("%.0f%%", 100*float64(d)/float64(max(total, 1))) }
	fmt.Fprintf(w, "wall %s; application goroutines running: none %s, one %s (%s), two or more %s\n",
		sec(total), sec(st.byCount[0]), sec(st.byCount[1]), pct(st.byCount[1]), sec(st.byCount[2]))
	fmt.Fprint(w, "wall by application goroutines running, 0 to 8 or more:")
	for _, d := range st.histogram {
		fmt.Fprintf(w, " %s", sec(d))
	}
	fmt.Fprintln(w, "\n\nstage\twall\tnone\tone\ttwo or more")
	for _, s := range st.stages {
		b := st.byStage[s]
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", s, sec(b[3]), sec(b[0]), sec(b[1]), sec(b[2]))
	}
	fmt.Fprintln(w, "\none goroutine alone, by stage | goroutine (over 0.05 s)")
	for _, kv := range sortedByValue(st.serialKind) {
		if kv.v >= 5e7 {
			fmt.Fprintf(w, "%s\t%s\n", sec(kv.v), kv.k)
		}
	}
	if len(st.samples) == 0 {
		return
	}
	fmt.Fprintln(w, "\nCPU samples by what they were doing: all, and while at most one application goroutine ran")
	counts := map[string]int64{}
	for k, v := range st.samples {
		counts[k] = int64(v[0])
	}
	for _, kv := range sortedByValue(counts) {
		fmt.Fprintf(w, "%s\t%d\t%d\n", kv.k, st.samples[kv.k][0], st.samples[kv.k][1])
	}
}

type keyValue struct {
	k string
	v int64
}

func sortedByValue(m map[string]int64) []keyValue {
	var out []keyValue
	for k, v := range m {
		out = append(out, keyValue{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].v > out[j].v || out[i].v == out[j].v && out[i].k < out[j].k })
	return out
}

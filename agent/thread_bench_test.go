//go:build unix

package agent

import (
	"context"
	"sort"
	"testing"
	"time"
)

// followUps are first questions on the Go tree whose follow-up is "who
// calls that?".
var followUps = []string{
	"what does `DetectContentType` do?",
	"what does `json.Unmarshal` do?",
	"what does `ParseDuration` do?",
	"what does `filepath.Walk` do?",
}

// BenchmarkFollowUpRetrieval measures a retrieval-mode follow-up ("who
// calls that?" after a question naming a function) on the warm Go tree
// index, against the same question asked alone with the name written out
// (the baseline, in the same run). p50 of each are reported.
func BenchmarkFollowUpRetrieval(b *testing.B) {
	snap := goroot(b)
	ctx := context.Background()
	a := New(Config{NoModel: true})
	threads := make([]*Thread, len(followUps))
	for i, q := range followUps {
		threads[i] = NewThread("goroot")
		if _, err := a.askIn(ctx, snap, threads[i], Question{Text: q}, Events{}); err != nil {
			b.Fatal(err)
		}
	}
	var follow, alone []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(followUps)
		th := *threads[k]
		th.Turns = append([]Turn(nil), th.Turns...)
		th.Evidence = append([]ThreadEvidence(nil), th.Evidence...)
		t0 := time.Now()
		res, err := a.askIn(ctx, snap, &th, Question{Text: "who calls that?"}, Events{})
		follow = append(follow, time.Since(t0))
		if err != nil || len(res.Citations) == 0 {
			b.Fatalf("follow-up: %v", err)
		}
		name := threads[k].Evidence[0].Symbol
		t0 = time.Now()
		if _, err := a.askIn(ctx, snap, nil, Question{Text: "who calls `" + name + "`?"}, Events{}); err != nil {
			b.Fatal(err)
		}
		alone = append(alone, time.Since(t0))
	}
	b.ReportMetric(float64(p50(follow).Microseconds())/1000, "followup-p50-ms")
	b.ReportMetric(float64(p50(alone).Microseconds())/1000, "alone-p50-ms")
}

func p50(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

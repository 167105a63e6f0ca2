package main

import (
	"math"
	"testing"

	"github.com/askls/askls/index"
)

func TestQuestionHalf(t *testing.T) {
	for id, want := range map[string]string{"cobra-01": "dev", "cobra-02": "held", "x-13": "dev", "x-20": "held", "noid": "held"} {
		if got := questionHalf(id); got != want {
			t.Errorf("questionHalf(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestNDCG(t *testing.T) {
	var q evalQuestion
	q.Expected = append(q.Expected, struct {
		Path       string `json:"path"`
		Start, End int
		Symbol     string `json:"symbol"`
	}{Path: "a.go", Start: 10, End: 20}, struct {
		Path       string `json:"path"`
		Start, End int
		Symbol     string `json:"symbol"`
	}{Path: "b.go", Start: 1, End: 5})
	hit := func(p string, s, e int) index.Hit { return index.Hit{Path: p, Start: s, End: e} }
	cases := []struct {
		name string
		hits []index.Hit
		want float64
	}{
		{"ideal", []index.Hit{hit("a.go", 12, 14), hit("b.go", 1, 2)}, 1},
		{"none", []index.Hit{hit("c.go", 1, 99)}, 0},
		// The same answer twice counts once; the second answer at rank 3.
		{"repeat", []index.Hit{hit("a.go", 10, 11), hit("a.go", 19, 30), hit("b.go", 5, 9)},
			(1 + 1/math.Log2(4)) / (1 + 1/math.Log2(3))},
		// Outside the first 10 hits nothing counts.
		{"deep", append(make([]index.Hit, 10), hit("a.go", 10, 20)), 0},
	}
	for _, c := range cases {
		if got := ndcgAt(c.hits, q, 10); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: ndcg = %.4f, want %.4f", c.name, got, c.want)
		}
	}
}

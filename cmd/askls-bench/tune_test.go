package main

import "testing"

// --tune sets the fields of index.Ranking (rank.Params), those of the
// embedded rank.Priors too, by name, case aside.
func TestParseTuneSetsRankingFields(t *testing.T) {
	rk, err := parseTune("TestFactor=0.5,feedbackweight=0,PoolIDF=false,RerankPool=7")
	if err != nil {
		t.Fatal(err)
	}
	if rk.TestFactor != 0.5 || rk.FeedbackWeight != 0 || rk.PoolIDF || rk.RerankPool != 7 {
		t.Errorf("parseTune = %+v", *rk)
	}
	if _, err := parseTune("NoSuchField=1"); err == nil {
		t.Error("parseTune accepted an unknown field")
	}
}

package rank

import (
	"testing"

	"github.com/askls/askls/index/chunk"
)

// A question about one direction of an operation weighs the code named
// for the other direction only; a question naming both directions, even
// of two operations, is left alone.
func TestDirectionWeighsTheOtherSide(t *testing.T) {
	cands := func() []Cand {
		return []Cand{
			{Path: "ledger/reader.go", Meta: chunk.Meta{Symbol: "nextEntry"}, Score: 1},
			{Path: "ledger/writer.go", Meta: chunk.Meta{Symbol: "appendEntry"}, Score: 1},
			{Path: "ledger/entry.go", Meta: chunk.Meta{Symbol: "Entry.WriteTo"}, Score: 1},
			{Path: "ledger/copy.go", Meta: chunk.Meta{Symbol: "copyEntries", Parts: []chunk.Part{{Symbol: "readAll"}, {Symbol: "writeAll"}}}, Score: 1},
			{Path: "ledger/entry.go", Meta: chunk.Meta{Symbol: "Entry.Balance"}, Score: 1},
			{Path: "ledger/sink.go", Meta: chunk.Meta{Symbol: "writeHeader", Parts: []chunk.Part{{Symbol: "writeHeader"}, {Symbol: "flushWrites"}}}, Score: 1},
		}
	}
	for _, c := range []struct {
		q    string
		want []float64
	}{
		{"how does the ledger read an entry back", []float64{1, 0.5, 0.5, 1, 1, 0.5}},
		{"how is an entry written to the ledger", []float64{0.5, 1, 1, 1, 1, 1}},
		{"how are entries read and written", []float64{1, 1, 1, 1, 1, 1}},
		{"how is an uploaded ledger read", []float64{1, 1, 1, 1, 1, 1}}, // in and out across pairs
		{"how is the balance of an entry kept", []float64{1, 1, 1, 1, 1, 1}},
	} {
		p, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		cs := cands()
		Direction(p, cs, 0.5)
		for i, cd := range cs {
			if cd.Score != c.want[i] {
				t.Errorf("%q: %s %s scores %v, want %v", c.q, cd.Path, cd.Meta.Symbol, cd.Score, c.want[i])
			}
		}
	}
}

// The client and the server of one exchange are a pair too, apart from
// in and out: a question about the client's side of a handshake that
// reads and writes weighs the server's code.
func TestDirectionWeighsTheOtherRole(t *testing.T) {
	cands := []Cand{
		{Path: "link/handshake_client.go", Meta: chunk.Meta{Symbol: "clientHello"}, Score: 1},
		{Path: "link/handshake_server.go", Meta: chunk.Meta{Symbol: "serverHello"}, Score: 1},
		{Path: "link/conn.go", Meta: chunk.Meta{Symbol: "Conn.readRecord"}, Score: 1},
	}
	p, err := ParseQuery("where does the client read and write its first handshake message")
	if err != nil {
		t.Fatal(err)
	}
	Direction(p, cands, 0.5)
	for i, want := range []float64{1, 0.5, 1} {
		if cands[i].Score != want {
			t.Errorf("%s scores %v, want %v", cands[i].Path, cands[i].Score, want)
		}
	}
}

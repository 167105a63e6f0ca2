package ollamatest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
)

// readGGUF parses what WriteGGUF wrote, independently of it, following the
// GGUF v3 layout: header, key/values, tensor infos, aligned data.
func readGGUF(t *testing.T, b []byte) (map[string]any, map[string]Tensor) {
	t.Helper()
	r := bytes.NewReader(b)
	var fail error
	rd := func(v any) {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil && fail == nil {
			fail = err
		}
	}
	str := func() string {
		var n uint64
		rd(&n)
		s := make([]byte, n)
		io.ReadFull(r, s)
		return string(s)
	}
	var value func(typ uint32) any
	value = func(typ uint32) any {
		switch typ {
		case ggufUint32:
			var v uint32
			rd(&v)
			return v
		case ggufInt32:
			var v int32
			rd(&v)
			return v
		case ggufFloat32:
			var v float32
			rd(&v)
			return v
		case ggufBool:
			var v uint8
			rd(&v)
			return v == 1
		case ggufString:
			return str()
		case ggufArray:
			var et uint32
			var n uint64
			rd(&et)
			rd(&n)
			out := make([]any, n)
			for i := range out {
				out[i] = value(et)
			}
			return out
		}
		t.Fatalf("unknown gguf type %d", typ)
		return nil
	}
	magic := make([]byte, 4)
	io.ReadFull(r, magic)
	var version uint32
	var nt, nkv uint64
	rd(&version)
	rd(&nt)
	rd(&nkv)
	if string(magic) != "GGUF" || version != 3 {
		t.Fatalf("header %q v%d", magic, version)
	}
	kv := map[string]any{}
	for i := uint64(0); i < nkv; i++ {
		k := str()
		var typ uint32
		rd(&typ)
		kv[k] = value(typ)
	}
	type info struct {
		name   string
		shape  []uint64
		offset uint64
	}
	var infos []info
	for i := uint64(0); i < nt; i++ {
		in := info{name: str()}
		var nd, typ uint32
		rd(&nd)
		for j := uint32(0); j < nd; j++ {
			var d uint64
			rd(&d)
			in.shape = append(in.shape, d)
		}
		rd(&typ)
		rd(&in.offset)
		if typ != ggmlTypeF32 {
			t.Fatalf("tensor %s type %d", in.name, typ)
		}
		if in.offset%ggufAlignment != 0 {
			t.Fatalf("tensor %s offset %d not aligned", in.name, in.offset)
		}
		infos = append(infos, in)
	}
	if fail != nil {
		t.Fatal(fail)
	}
	start := align(uint64(len(b)-r.Len()), ggufAlignment)
	tensors := map[string]Tensor{}
	for _, in := range infos {
		tt := Tensor{Name: in.name, Shape: in.shape}
		n := tt.elements()
		off := start + in.offset
		if off+4*n > uint64(len(b)) {
			t.Fatalf("tensor %s runs past the end of the file", in.name)
		}
		tt.Data = make([]float32, n)
		for i := range tt.Data {
			tt.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*uint64(i):]))
		}
		tensors[in.name] = tt
	}
	return kv, tensors
}

// decode runs the model the way llama.cpp would with attention and
// feed-forward outputs zero: embedding → RMS norm → output, greedy.
func decode(t *testing.T, tensors map[string]Tensor, vocab []string, start int) string {
	t.Helper()
	embd, out := tensors["token_embd.weight"], tensors["output.weight"]
	d := int(embd.Shape[0])
	for _, name := range []string{"blk.0.attn_output.weight", "blk.1.ffn_down.weight"} {
		for _, f := range tensors[name].Data {
			if f != 0 {
				t.Fatalf("%s is not zero", name)
			}
		}
	}
	var sb strings.Builder
	tok := start
	for steps := 0; steps < 100; steps++ {
		x := embd.Data[tok*d : (tok+1)*d]
		var ss float64
		for _, f := range x {
			ss += float64(f) * float64(f)
		}
		norm := math.Sqrt(ss/float64(d) + 1e-5)
		best, bestLogit, second := -1, math.Inf(-1), math.Inf(-1)
		for j := 0; j < len(vocab); j++ {
			var l float64
			for k := 0; k < d; k++ {
				l += float64(out.Data[j*d+k]) * float64(x[k]) / norm
			}
			if l > bestLogit {
				best, second, bestLogit = j, bestLogit, l
			} else if l > second {
				second = l
			}
		}
		if bestLogit-second < 50 {
			t.Fatalf("after %q the margin is only %.1f", vocab[tok], bestLogit-second)
		}
		if best == tokEOS {
			return sb.String()
		}
		sb.WriteString(vocab[best])
		tok = best
	}
	t.Fatalf("no </s> after 100 tokens from %q: %q", vocab[start], sb.String())
	return ""
}

func indexOf(vocab []string, piece string) int {
	for i, p := range vocab {
		if p == piece {
			return i
		}
	}
	return -1
}

func TestScriptedModelFollowsItsScript(t *testing.T) {
	m, err := Build(searchThenAnswer)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.GGUF) > 2<<20 {
		t.Errorf("model is %d bytes, want under 2 MB", len(m.GGUF))
	}
	kv, tensors := readGGUF(t, m.GGUF)
	if kv["general.architecture"] != "llama" || kv["tokenizer.ggml.model"] != "llama" {
		t.Fatalf("kv = %v", kv["general.architecture"])
	}
	if toks := kv["tokenizer.ggml.tokens"].([]any); len(toks) != len(m.Vocab) {
		t.Fatalf("%d tokens in the file, %d in the vocabulary", len(toks), len(m.Vocab))
	}
	if got := len(tensors); got != 3+9*blockCount {
		t.Fatalf("%d tensors", got)
	}
	want := []string{
		callsString(searchThenAnswer.Turns[0].Calls),
		// Two calls in one reply: one token each, back to back.
		searchThenAnswer.Turns[1].Calls[0].JSON() + searchThenAnswer.Turns[1].Calls[1].JSON(),
		searchThenAnswer.Turns[2].Text,
	}
	for i, step := range []int{0, 1, 3} {
		if got := decode(t, tensors, m.Vocab, indexOf(m.Vocab, stepMarker(step))); got != want[i] {
			t.Errorf("after %s: %q, want %q", stepMarker(step), got, want[i])
		}
	}
	// Markers the script does not reach, and ordinary tokens, end the reply.
	for _, p := range []string{stepMarker(2), stepMarker(4), "<0x41>", "<|user|>"} {
		if got := decode(t, tensors, m.Vocab, indexOf(m.Vocab, p)); got != "" {
			t.Errorf("after %s: %q, want nothing", p, got)
		}
	}
}

func TestRepeatingScriptLoopsOnItsLastTurn(t *testing.T) {
	loop := Script{Repeat: true, Turns: []Turn{{Calls: []ToolCall{{Name: "grep", Args: map[string]any{"pattern": "x"}}}}}}
	m, err := Build(loop)
	if err != nil {
		t.Fatal(err)
	}
	_, tensors := readGGUF(t, m.GGUF)
	for _, step := range []int{0, 1, 7, MaxSteps - 1} {
		if got := decode(t, tensors, m.Vocab, indexOf(m.Vocab, stepMarker(step))); got != loop.Turns[0].Calls[0].JSON() {
			t.Errorf("after %s: %q", stepMarker(step), got)
		}
	}
}

func TestRepeatedPiecesAreMadeDistinct(t *testing.T) {
	c := ToolCall{Name: "grep", Args: map[string]any{"pattern": "x"}}
	s := Script{Turns: []Turn{
		{Calls: []ToolCall{c, c}},
		{Text: "the the the end [1] the end [1]"},
	}}
	m, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	_, tensors := readGGUF(t, m.GGUF)
	if got := decode(t, tensors, m.Vocab, indexOf(m.Vocab, stepMarker(0))); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(c.JSON()+c.JSON(), " ", "") {
		t.Errorf("calls: %q", got)
	}
	if got := decode(t, tensors, m.Vocab, indexOf(m.Vocab, stepMarker(2))); got != s.Turns[1].Text {
		t.Errorf("text: %q", got)
	}
}

func TestScriptErrors(t *testing.T) {
	if _, err := Build(Script{Turns: []Turn{{Text: "x", Calls: []ToolCall{{Name: "grep"}}}}}); err == nil {
		t.Error("a turn with both calls and text was accepted")
	}
	var long Script
	for i := 0; i < MaxSteps+1; i++ {
		long.Turns = append(long.Turns, Turn{Calls: []ToolCall{{Name: "grep", Args: map[string]any{"pattern": fmt.Sprint(i)}}}})
	}
	if _, err := Build(long); err == nil || !strings.Contains(err.Error(), "tool calls") {
		t.Errorf("more tool calls than step markers: %v", err)
	}
	long.Turns = long.Turns[:58]
	long.Turns = append(long.Turns, Turn{Text: "one two three four five six seven eight nine ten eleven twelve"})
	if _, err := Build(long); err == nil || !strings.Contains(err.Error(), "distinct next tokens") {
		t.Errorf("a script needing more classes than dimensions: %v", err)
	}
}

func TestRandomModelKeepsTheVocabulary(t *testing.T) {
	m, err := Random(searchThenAnswer, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Build(searchThenAnswer)
	kv, _ := readGGUF(t, m.GGUF)
	if n := len(kv["tokenizer.ggml.tokens"].([]any)); n != len(s.Vocab) {
		t.Errorf("random model has %d tokens, scripted %d", n, len(s.Vocab))
	}
}

func TestEndlessScriptNeverEnds(t *testing.T) {
	m, err := Build(Script{Endless: true, Turns: []Turn{{Text: "and again "}}})
	if err != nil {
		t.Fatal(err)
	}
	_, tensors := readGGUF(t, m.GGUF)
	tok := indexOf(m.Vocab, stepMarker(0))
	embd, out := tensors["token_embd.weight"], tensors["output.weight"]
	var got strings.Builder
	for i := 0; i < 6; i++ { // greedy, as decode does, without the </s> check
		best, bestL := 0, math.Inf(-1)
		for j := range m.Vocab {
			var l float64
			for k := 0; k < embedDim; k++ {
				l += float64(out.Data[j*embedDim+k] * embd.Data[tok*embedDim+k])
			}
			if l > bestL {
				best, bestL = j, l
			}
		}
		if best == tokEOS {
			t.Fatalf("ended after %q", got.String())
		}
		got.WriteString(m.Vocab[best])
		tok = best
	}
	if got.String() != "and again and again and again " {
		t.Errorf("%q", got.String())
	}
}

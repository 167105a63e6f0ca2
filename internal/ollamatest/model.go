package ollamatest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Shape of every generated model: llama architecture, small enough to
// answer in milliseconds on one thread. One block and one head: llama.cpp
// computes attention even when its weights are zero, so every block and
// head adds prompt time (a 4,000-token prompt takes about 2 s this way).
const (
	embedDim   = 64
	blockCount = 1
	headCount  = 1
	ffnDim     = 256
	// ContextLength is the model's trained context: larger than askls's
	// default num_ctx so that Ollama does not shrink what askls asks for.
	ContextLength = 32768
	// MaxSteps is the number of step markers <|step0|> … in the vocabulary:
	// a script can react to at most this many tool calls.
	MaxSteps = 64
	// scale is the logit of the scripted next token (8*scale after the
	// RMS norm); every other token scores 0.
	scale = 16
)

// Fixed token ids.
const (
	tokUnk = 0
	tokBOS = 1
	tokEOS = 2
)

// ToolCall is one call the model makes, with askls's tool names and
// arguments.
type ToolCall struct {
	Name string
	Args map[string]any
}

// JSON is the call as the model writes it (and as the template renders
// .ToolCalls): {"name": …, "arguments": {…}}.
func (c ToolCall) JSON() string {
	args, err := json.Marshal(c.Args)
	if err != nil || c.Args == nil {
		args = []byte("{}")
	}
	name, _ := json.Marshal(c.Name)
	return fmt.Sprintf(`{"name": %s, "arguments": %s}`, name, args)
}

// Turn is one reply of the model: either tool calls or the answer text.
type Turn struct {
	Calls []ToolCall
	Text  string
}

// Script is what a scripted model says. Turn i is the reply when the
// conversation so far holds as many tool calls as the turns before i made;
// the last turn is the reply from then on when Repeat is set (a model that
// loops on a tool), and an empty reply otherwise.
//
// With Endless, the last turn's text never ends: its last piece is followed
// by its first again (num_predict stops it after 100,000 tokens). It keeps
// the model answering until the request is cancelled.
type Script struct {
	Turns   []Turn
	Repeat  bool
	Endless bool
}

// Model is a generated model: the GGUF file's bytes and what goes in its
// Modelfile.
type Model struct {
	GGUF       []byte
	Template   string
	Parameters [][2]string // Modelfile PARAMETER lines, in order
	Vocab      []string    // token pieces, by id
}

// vocab builds the token list: <unk> <s> </s>, the 256 byte tokens, the
// template's markers, then extra user-defined pieces.
type vocab struct {
	pieces []string
	types  []int32
	ids    map[string]int
}

// Token types of llama.cpp's SPM vocabularies.
const (
	typeNormal      = 1
	typeUnknown     = 2
	typeControl     = 3
	typeUserDefined = 4
	typeByte        = 6
)

func newVocab() *vocab {
	v := &vocab{ids: map[string]int{}}
	v.add("<unk>", typeUnknown)
	v.add("<s>", typeControl)
	v.add("</s>", typeControl)
	for b := 0; b < 256; b++ {
		v.add(fmt.Sprintf("<0x%02X>", b), typeByte)
	}
	v.addWordPieces()
	for _, m := range templateMarkers {
		v.add(m, typeUserDefined)
	}
	for i := 0; i < MaxSteps; i++ {
		v.add(stepMarker(i), typeUserDefined)
	}
	return v
}

func (v *vocab) add(piece string, typ int32) int {
	if id, ok := v.ids[piece]; ok {
		return id
	}
	id := len(v.pieces)
	v.pieces = append(v.pieces, piece)
	v.types = append(v.types, typ)
	v.ids[piece] = id
	return id
}

func stepMarker(i int) string { return fmt.Sprintf("<|step%d|>", i) }

// Build writes the scripted model for s.
func Build(s Script) (*Model, error) {
	v := newVocab()
	next := map[int]int{} // token → the token that must follow it
	link := func(from, to int) error {
		if old, ok := next[from]; ok && old != to {
			return fmt.Errorf("ollamatest: token %q would be followed by both %q and %q; make the script's pieces differ",
				v.pieces[from], v.pieces[old], v.pieces[to])
		}
		next[from] = to
		return nil
	}
	calls := 0
	for i, turn := range s.Turns {
		if len(turn.Calls) > 0 && turn.Text != "" {
			return nil, fmt.Errorf("ollamatest: turn %d has both tool calls and text", i)
		}
		if calls >= MaxSteps {
			return nil, fmt.Errorf("ollamatest: turn %d comes after %d tool calls; step markers go up to %d", i, calls, MaxSteps-1)
		}
		pieces, err := turnPieces(v, turn)
		if err != nil {
			return nil, fmt.Errorf("ollamatest: turn %d: %w", i, err)
		}
		last := i == len(s.Turns)-1
		markers := []int{v.ids[stepMarker(calls)]}
		calls += len(turn.Calls)
		if last && s.Repeat {
			for c := calls; c < MaxSteps; c++ {
				markers = append(markers, v.ids[stepMarker(c)])
			}
		}
		for _, m := range markers {
			prev := m
			for _, p := range pieces {
				if err := link(prev, p); err != nil {
					return nil, err
				}
				prev = p
			}
			end := tokEOS
			if last && s.Endless {
				if turn.Text == "" {
					return nil, fmt.Errorf("ollamatest: an endless script must end with text")
				}
				end = pieces[0]
			}
			if err := link(prev, end); err != nil {
				return nil, err
			}
		}
	}
	gguf, err := scriptedGGUF(v, next)
	if err != nil {
		return nil, err
	}
	numPredict := "256"
	if s.Endless {
		numPredict = "100000"
	}
	return &Model{
		GGUF:     gguf,
		Template: ToolTemplate,
		Parameters: [][2]string{
			{"num_thread", "1"},
			{"temperature", "0"},
			{"num_predict", numPredict},
		},
		Vocab: v.pieces,
	}, nil
}

// turnPieces adds the turn's pieces to the vocabulary: one token per tool
// call, the text in word-sized tokens. A piece that already has another
// use is made distinct: a tool call gets a trailing space (JSON does
// not mind), text is merged with the next word.
func turnPieces(v *vocab, turn Turn) ([]int, error) {
	var ids []int
	fresh := func(p string) bool {
		_, taken := v.ids[p]
		return !taken
	}
	for _, c := range turn.Calls {
		p := c.JSON()
		for !fresh(p) {
			p += " "
		}
		id := v.add(p, typeUserDefined)
		ids = append(ids, id)
	}
	words := splitWords(turn.Text)
	for i := 0; i < len(words); {
		p := words[i]
		i++
		for !fresh(p) && i < len(words) {
			p += words[i]
			i++
		}
		if !fresh(p) {
			if len(ids) == 0 {
				return nil, fmt.Errorf("text %q is already a token with another use", p)
			}
			// Fold the tail into the previous piece.
			prev := ids[len(ids)-1]
			ids = ids[:len(ids)-1]
			p = v.pieces[prev] + p
			if !fresh(p) {
				return nil, fmt.Errorf("cannot make piece %q unique", p)
			}
		}
		id := v.add(p, typeUserDefined)
		ids = append(ids, id)
	}
	return ids, nil
}

// maxTextPieces caps the tokens of one answer, so that long answers still
// fit the embedding's classes.
const maxTextPieces = 12

// splitWords cuts text after spaces into at most maxTextPieces parts, so
// that joining the parts gives the text back.
func splitWords(text string) []string {
	var words []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			words = append(words, text)
			break
		}
		words = append(words, text[:i+1])
		text = text[i+1:]
	}
	per := (len(words) + maxTextPieces - 1) / maxTextPieces
	var out []string
	for i := 0; i < len(words); i += per {
		out = append(out, strings.Join(words[i:min(i+per, len(words))], ""))
	}
	return out
}

// scriptedGGUF writes the weights: embeddings one-hot on the class of the
// next token, output rows that score each class's token, zero elsewhere.
func scriptedGGUF(v *vocab, next map[int]int) ([]byte, error) {
	n := len(v.pieces)
	class := map[int]int{tokEOS: 0} // next token → embedding dimension
	for _, to := range next {
		if _, ok := class[to]; !ok {
			class[to] = len(class)
		}
	}
	if len(class) > embedDim {
		return nil, fmt.Errorf("ollamatest: the script needs %d distinct next tokens; at most %d fit", len(class), embedDim)
	}
	embd := make([]float32, n*embedDim)
	out := make([]float32, n*embedDim)
	for tok := 0; tok < n; tok++ {
		to, ok := next[tok]
		if !ok {
			to = tokEOS // unscripted tokens end the reply
		}
		embd[tok*embedDim+class[to]] = 1
	}
	for to, c := range class {
		out[to*embedDim+c] = scale
	}
	return encodeModel(v, embd, out, func(int) float32 { return 0 })
}

// Random writes a model with the script's vocabulary (and so its tool-call
// and answer pieces) but random weights: it emits tokens no one chose,
// stopped by num_predict.
func Random(s Script, seed int64) (*Model, error) {
	m, err := Build(s)
	if err != nil {
		return nil, err
	}
	v := newVocab()
	fixed := len(v.pieces)
	for _, p := range m.Vocab[fixed:] {
		v.add(p, typeUserDefined)
	}
	r := rand.New(rand.NewSource(seed))
	n := len(v.pieces)
	embd := make([]float32, n*embedDim)
	out := make([]float32, n*embedDim)
	for i := range embd {
		embd[i] = float32(r.NormFloat64())
		out[i] = float32(r.NormFloat64() * 0.5)
	}
	// Favour the script's pieces (tool calls, answer text with [n]) so
	// that the noise often holds tool calls and citations: every token
	// carries a constant on dimension 0, which the pieces' output rows
	// score.
	for tok := 0; tok < n; tok++ {
		embd[tok*embedDim] = 4
		if tok >= fixed {
			out[tok*embedDim] += 1.5
		}
	}
	m.GGUF, err = encodeModel(v, embd, out, func(int) float32 { return float32(r.NormFloat64() * 0.1) })
	if err != nil {
		return nil, err
	}
	m.Parameters = [][2]string{
		{"num_thread", "1"},
		{"temperature", "1"},
		{"seed", fmt.Sprint(seed)},
		{"num_predict", "48"},
	}
	return m, nil
}

// encodeModel writes the GGUF file; fill gives each value of the attention
// and feed-forward weights (zero for a scripted model).
func encodeModel(v *vocab, embd, out []float32, fill func(int) float32) ([]byte, error) {
	n := uint64(len(v.pieces))
	d := uint64(embedDim)
	ones := func(k uint64) []float32 {
		f := make([]float32, k)
		for i := range f {
			f[i] = 1
		}
		return f
	}
	filled := func(k uint64) []float32 {
		f := make([]float32, k)
		for i := range f {
			f[i] = fill(i)
		}
		return f
	}
	tensors := []Tensor{
		{Name: "token_embd.weight", Shape: []uint64{d, n}, Data: embd},
		{Name: "output_norm.weight", Shape: []uint64{d}, Data: ones(d)},
		{Name: "output.weight", Shape: []uint64{d, n}, Data: out},
	}
	for b := 0; b < blockCount; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		tensors = append(tensors,
			Tensor{Name: p + "attn_norm.weight", Shape: []uint64{d}, Data: ones(d)},
			Tensor{Name: p + "attn_q.weight", Shape: []uint64{d, d}, Data: filled(d * d)},
			Tensor{Name: p + "attn_k.weight", Shape: []uint64{d, d}, Data: filled(d * d)},
			Tensor{Name: p + "attn_v.weight", Shape: []uint64{d, d}, Data: filled(d * d)},
			Tensor{Name: p + "attn_output.weight", Shape: []uint64{d, d}, Data: filled(d * d)},
			Tensor{Name: p + "ffn_norm.weight", Shape: []uint64{d}, Data: ones(d)},
			Tensor{Name: p + "ffn_gate.weight", Shape: []uint64{d, ffnDim}, Data: filled(d * ffnDim)},
			Tensor{Name: p + "ffn_up.weight", Shape: []uint64{d, ffnDim}, Data: filled(d * ffnDim)},
			Tensor{Name: p + "ffn_down.weight", Shape: []uint64{ffnDim, d}, Data: filled(d * ffnDim)},
		)
	}
	// SPM merges the pair whose result scores highest: prefer long pieces.
	scores := make([]float32, n)
	for i, p := range v.pieces {
		if v.types[i] == typeNormal {
			scores[i] = float32(len(p))
		}
	}
	kv := map[string]any{
		"general.architecture":                   "llama",
		"general.name":                           "askls-scripted",
		"general.file_type":                      uint32(0), // all F32
		"llama.context_length":                   uint32(ContextLength),
		"llama.embedding_length":                 uint32(embedDim),
		"llama.block_count":                      uint32(blockCount),
		"llama.feed_forward_length":              uint32(ffnDim),
		"llama.attention.head_count":             uint32(headCount),
		"llama.attention.head_count_kv":          uint32(headCount),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.rope.dimension_count":             uint32(embedDim / headCount),
		"llama.vocab_size":                       uint32(n),
		"tokenizer.ggml.model":                   "llama",
		"tokenizer.ggml.tokens":                  v.pieces,
		"tokenizer.ggml.scores":                  scores,
		"tokenizer.ggml.token_type":              v.types,
		"tokenizer.ggml.unknown_token_id":        uint32(tokUnk),
		"tokenizer.ggml.bos_token_id":            uint32(tokBOS),
		"tokenizer.ggml.eos_token_id":            uint32(tokEOS),
		"tokenizer.ggml.add_bos_token":           true,
		"tokenizer.ggml.add_eos_token":           false,
		"tokenizer.ggml.add_space_prefix":        false,
	}
	var b bytes.Buffer
	if err := WriteGGUF(&b, kv, tensors); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Modelfile is the Modelfile text for the model stored at ggufPath.
func (m *Model) Modelfile(ggufPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "FROM %s\n", ggufPath)
	fmt.Fprintf(&b, "TEMPLATE \"\"\"%s\"\"\"\n", m.Template)
	for _, p := range m.Parameters {
		fmt.Fprintf(&b, "PARAMETER %s %s\n", p[0], p[1])
	}
	return b.String()
}

// WriteFiles writes model.gguf and Modelfile into dir and returns the
// Modelfile's path.
func (m *Model) WriteFiles(dir string) (string, error) {
	gguf := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(gguf, m.GGUF, 0o644); err != nil {
		return "", fmt.Errorf("ollamatest: %w", err)
	}
	mf := filepath.Join(dir, "Modelfile")
	if err := os.WriteFile(mf, []byte(m.Modelfile(gguf)), 0o644); err != nil {
		return "", fmt.Errorf("ollamatest: %w", err)
	}
	return mf, nil
}

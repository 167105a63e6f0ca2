package ollamatest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
)

// GGUF value types (the format's gguf_type enumeration).
const (
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufBool    = 7
	ggufString  = 8
	ggufArray   = 9
)

// ggmlTypeF32 is the tensor type of 32-bit floats.
const ggmlTypeF32 = 0

// ggufAlignment is the default alignment of tensor data.
const ggufAlignment = 32

// Tensor is one float32 tensor. Shape is in GGUF order: the first dimension
// is the innermost (the length of a row), as llama.cpp's ne[0].
type Tensor struct {
	Name  string
	Shape []uint64
	Data  []float32
}

func (t Tensor) elements() uint64 {
	n := uint64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// WriteGGUF writes a GGUF v3 file: kv holds the metadata, whose values may be
// uint32, int32, float32, bool, string, []string, []float32 or []int32. Keys
// are written sorted, tensors in the order given.
func WriteGGUF(w io.Writer, kv map[string]any, tensors []Tensor) error {
	bw := bufio.NewWriter(w)
	e := &ggufEncoder{w: bw}
	e.raw([]byte("GGUF"))
	e.u32(3)
	e.u64(uint64(len(tensors)))
	e.u64(uint64(len(kv)))

	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e.str(k)
		if err := e.value(kv[k]); err != nil {
			return fmt.Errorf("gguf: key %s: %w", k, err)
		}
	}

	var offset uint64
	for _, t := range tensors {
		if uint64(len(t.Data)) != t.elements() {
			return fmt.Errorf("gguf: tensor %s: %d values for shape %v", t.Name, len(t.Data), t.Shape)
		}
		e.str(t.Name)
		e.u32(uint32(len(t.Shape)))
		for _, d := range t.Shape {
			e.u64(d)
		}
		e.u32(ggmlTypeF32)
		e.u64(offset)
		offset += align(uint64(len(t.Data))*4, ggufAlignment)
	}
	e.pad()
	for _, t := range tensors {
		for _, f := range t.Data {
			e.u32(math.Float32bits(f))
		}
		e.pad()
	}
	if e.err != nil {
		return fmt.Errorf("gguf: %w", e.err)
	}
	return bw.Flush()
}

func align(n, a uint64) uint64 { return (n + a - 1) / a * a }

// ggufEncoder writes little-endian values and remembers the first error.
type ggufEncoder struct {
	w   io.Writer
	n   uint64
	err error
}

func (e *ggufEncoder) raw(b []byte) {
	if e.err != nil {
		return
	}
	n, err := e.w.Write(b)
	e.n += uint64(n)
	e.err = err
}

func (e *ggufEncoder) u32(v uint32) { e.raw(binary.LittleEndian.AppendUint32(nil, v)) }
func (e *ggufEncoder) u64(v uint64) { e.raw(binary.LittleEndian.AppendUint64(nil, v)) }

func (e *ggufEncoder) str(s string) {
	e.u64(uint64(len(s)))
	e.raw([]byte(s))
}

// pad writes zeros up to the next aligned offset.
func (e *ggufEncoder) pad() {
	if n := align(e.n, ggufAlignment) - e.n; n > 0 {
		e.raw(make([]byte, n))
	}
}

func (e *ggufEncoder) value(v any) error {
	switch v := v.(type) {
	case uint32:
		e.u32(ggufUint32)
		e.u32(v)
	case int32:
		e.u32(ggufInt32)
		e.u32(uint32(v))
	case float32:
		e.u32(ggufFloat32)
		e.u32(math.Float32bits(v))
	case bool:
		e.u32(ggufBool)
		if v {
			e.raw([]byte{1})
		} else {
			e.raw([]byte{0})
		}
	case string:
		e.u32(ggufString)
		e.str(v)
	case []string:
		e.u32(ggufArray)
		e.u32(ggufString)
		e.u64(uint64(len(v)))
		for _, s := range v {
			e.str(s)
		}
	case []float32:
		e.u32(ggufArray)
		e.u32(ggufFloat32)
		e.u64(uint64(len(v)))
		for _, f := range v {
			e.u32(math.Float32bits(f))
		}
	case []int32:
		e.u32(ggufArray)
		e.u32(ggufInt32)
		e.u64(uint64(len(v)))
		for _, i := range v {
			e.u32(uint32(i))
		}
	default:
		return fmt.Errorf("unsupported value type %T", v)
	}
	return nil
}

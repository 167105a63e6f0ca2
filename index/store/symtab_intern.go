package store

import (
	"hash/maphash"
	"unsafe"
)

// interner numbers distinct strings in the order met, keeping them in one
// byte arena: no string header nor allocation per string, and nothing
// for the collector to scan but a few large arrays. A symbol table's build
// interns the kernel's 2.2 million distinct names with it: as a Go map of
// strings, those names and their maps were most of the build's 500 MB of
// live heap and of its collector's work.
type interner struct {
	arena []byte
	offs  []int32 // by number: where its string starts in arena
	// slots: open addressing, each the high half of its string's hash
	// (most probes then compare no string) and its number + 1 in the
	// low half; 0 is an empty slot.
	slots []uint64
	seed  maphash.Seed
}

// newInterner is an interner sized for about hint strings.
func newInterner(hint int) *interner {
	n := 1024
	for n*3 < hint*4 {
		n *= 2
	}
	return &interner{slots: make([]uint64, n), seed: maphash.MakeSeed(),
		arena: make([]byte, 0, 16*hint), offs: make([]int32, 0, hint)}
}

// len is how many distinct strings were interned.
func (in *interner) len() int { return len(in.offs) }

// get is the string numbered id; it lies in the arena (valid as long as
// the interner is not added to: arena may move).
func (in *interner) get(id int32) string {
	end := int32(len(in.arena))
	if int(id)+1 < len(in.offs) {
		end = in.offs[id+1]
	}
	if end == in.offs[id] {
		return ""
	}
	return unsafe.String(&in.arena[in.offs[id]], int(end-in.offs[id]))
}

// id is the number of s, numbering it if it is new.
func (in *interner) id(s string) int32 {
	h := maphash.String(in.seed, s)
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(in.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := in.slots[i]
		if v == 0 {
			id := int32(len(in.offs))
			in.offs = append(in.offs, int32(len(in.arena)))
			in.arena = append(in.arena, s...)
			in.slots[i] = tag | uint64(id+1)
			if len(in.offs)*4 > len(in.slots)*3 {
				in.grow()
			}
			return id
		}
		if v&^(1<<32-1) == tag && in.get(int32(v)-1) == s {
			return int32(v) - 1
		}
	}
}

// grow doubles the slots and places every number again.
func (in *interner) grow() {
	old := in.slots
	in.slots = make([]uint64, 2*len(old))
	mask := uint64(len(in.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		h := maphash.String(in.seed, in.get(int32(v)-1))
		i := h & mask
		for in.slots[i] != 0 {
			i = (i + 1) & mask
		}
		in.slots[i] = v
	}
}

// done ends the interning: the strings joined in number order, where each
// starts (with the end last), and nothing else kept.
func (in *interner) done() (string, []int32) {
	blob := ""
	if len(in.arena) > 0 {
		blob = unsafe.String(&in.arena[0], len(in.arena))
	}
	offs := append(in.offs[:len(in.offs):len(in.offs)], int32(len(in.arena)))
	in.arena, in.offs, in.slots = nil, nil, nil
	return blob, offs
}

package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// ErrDamaged says a persisted index is damaged (a segment that does not
// match its checksum): it is rebuilt by the next Open.
var ErrDamaged = errors.New("the persisted index is damaged")

// DamagedFile, in a root's cache folder, holds why the index was found
// damaged while in use; the next Open rebuilds it.
const DamagedFile = "damaged"

// zapFooterMin is the shortest footer of a zap segment (zapx v11-v17):
// document count, stored-fields, fields-index and doc-values offsets,
// chunk mode, version and the CRC-32 of everything before it.
const zapFooterMin = 8 + 8 + 8 + 8 + 4 + 4 + 4

// VerifySegments checks every segment bi's current snapshot uses: its
// CRC-32 (IEEE, the last 4 bytes, of all the
// bytes before them, as zapx writes it) matches. bleve does not check it
// when it opens a segment, and a damaged one panics searches later
// (slice bounds out of range in zapx). A non-scorch index (the in-memory
// fallback) has nothing to check.
func VerifySegments(bi bleve.Index) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: reading its segments panicked: %v", ErrDamaged, p)
		}
	}()
	ai, err := bi.Advanced()
	if err != nil {
		return err
	}
	sc, ok := ai.(*scorch.Scorch)
	if !ok {
		return nil
	}
	rd, err := sc.Reader()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	defer rd.Close()
	snap, ok := rd.(*scorch.IndexSnapshot)
	if !ok {
		return nil
	}
	for _, ss := range snap.Segments() {
		ps, ok := ss.Segment().(interface{ Path() string })
		if !ok {
			continue // in memory, not yet persisted
		}
		if err := checkSegmentFile(ps.Path()); err != nil {
			return fmt.Errorf("%w: segment %s: %v", ErrDamaged, filepath.Base(ps.Path()), err)
		}
	}
	return nil
}

// checkSegmentFile checks one zap file's size and checksum (which covers
// its footer's offsets too).
func checkSegmentFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	size := info.Size()
	if size < zapFooterMin {
		return fmt.Errorf("%d bytes, shorter than its footer", size)
	}
	var tail [4]byte
	if _, err := f.ReadAt(tail[:], size-4); err != nil {
		return err
	}
	want := binary.BigEndian.Uint32(tail[:])
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, size-4)); err != nil {
		return err
	}
	if got := h.Sum32(); got != want {
		return fmt.Errorf("checksum %08x, its footer says %08x", got, want)
	}
	return nil
}

// DamagedMark is why the index in cache was marked damaged, or "".
func DamagedMark(cache string) string {
	b, err := os.ReadFile(filepath.Join(cache, DamagedFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// VerifiedFile, in a root's cache folder, lists the segments that matched
// their checksum, one "name size mtime" a line: zap segments are written
// once and never changed, so each is read whole once, not at every open.
const VerifiedFile = "segments.ok"

// checkStoreFiles checks the segment files in the bleve folder dir before
// bleve opens them: zapx reads a damaged segment's offsets as they are,
// which panics, or asks for terabytes and ends the process (an
// out-of-memory error no recover stops). A segment is checked when it is
// new or its size or modification time changed since it was last checked
// (a write into it changes them). A segment half written when askls was
// killed fails the check too, and costs a rebuild.
func checkStoreFiles(dir string) error {
	zaps, err := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	if err != nil {
		return err
	}
	okPath := filepath.Join(filepath.Dir(dir), VerifiedFile)
	known := map[string]bool{}
	if b, err := os.ReadFile(okPath); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if line != "" {
				known[line] = true
			}
		}
	}
	var keys []string
	checked := false
	for _, z := range zaps {
		info, err := os.Stat(z)
		if err != nil {
			continue // removed by bleve meanwhile
		}
		key := fmt.Sprintf("%s %d %d", filepath.Base(z), info.Size(), info.ModTime().UnixNano())
		if !known[key] {
			if err := checkSegmentFile(z); err != nil {
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				return fmt.Errorf("%w: segment %s: %v", ErrDamaged, filepath.Base(z), err)
			}
			checked = true
		}
		keys = append(keys, key)
	}
	if checked || len(keys) != len(known) {
		// Best effort: without the list, the next open checks them all again.
		tmp := okPath + ".tmp"
		if os.WriteFile(tmp, []byte(strings.Join(keys, "\n")+"\n"), 0o644) == nil {
			os.Rename(tmp, okPath)
		}
	}
	return nil
}

// openVerified checks the segments in dir, then opens the bleve index
// there; a panic while opening is an error (the index is then rebuilt).
func openVerified(dir string) (bi bleve.Index, err error) {
	defer func() {
		if p := recover(); p != nil {
			bi, err = nil, fmt.Errorf("%w: opening it panicked: %v", ErrDamaged, p)
		}
	}()
	if err := checkStoreFiles(dir); err != nil {
		return nil, err
	}
	return Open(dir)
}

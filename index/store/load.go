package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"
)

// rebuildAbove: when more files than this were in flight at a crash,
// rebuilding from scratch is faster than purging them one by one.
const rebuildAbove = 2000

// loaded is a root's persisted index as Load found it.
type Loaded struct {
	Manifest *Manifest   // empty after a rebuild, or when there was none
	Bleve    bleve.Index // open, empty after a rebuild
	// journal lists the files in flight at a crash: purge what bleve
	// holds of them and index them again.
	Journal []string
	Fresh   bool   // the manifest is new: it must be saved
	Rebuilt string // why the index was rebuilt from scratch, or ""
	// inMemory, when set, is why bleve could not be created on disk: the
	// index is in memory for this run.
	InMemory error
}

// Load reads the manifest and the journal of the index in cache
// (of the root rootReal), opens bleve, and decides whether the persisted
// index can be used: no manifest beside a bleve folder (the first build
// did not finish), an unreadable one or one of another version, too many
// files in flight at a crash, a damaged mark or segment, a bleve that
// cannot open or holds another number of documents than the manifest
// lists chunks: each is a rebuild from scratch, with the reason. decode
// is called as the manifest starts to decode, and its result when done
// (RuntimeTuner.Decode).
func Load(cache, rootReal string, decode func() func()) Loaded {
	fresh := &Manifest{Version: ManifestVersion, Root: rootReal, Files: map[string]*Entry{}}
	endDecode := decode()
	m, err := LoadManifest(cache, rootReal)
	endDecode()
	l := Loaded{Manifest: m, Journal: ReadJournal(cache)}
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		l.Rebuilt = fmt.Sprintf("its manifest cannot be used (%v)", err)
	case err != nil:
		l.Manifest = fresh
		if _, serr := os.Stat(filepath.Join(cache, BleveDir)); serr == nil {
			l.Rebuilt = "it has no manifest (the first indexing did not finish)"
			if _, gerr := os.Stat(filepath.Join(cache, OldManifestFile)); gerr == nil {
				l.Rebuilt = "it was written by an older askls (another manifest format)"
			}
		}
	case len(l.Journal) > rebuildAbove:
		l.Rebuilt = fmt.Sprintf("askls stopped while writing %d files to it", len(l.Journal))
	}
	if mark := DamagedMark(cache); mark != "" && l.Rebuilt == "" {
		l.Rebuilt = "it was found damaged while in use (" + mark + ")"
	}
	if l.Rebuilt == "" {
		l.Bleve, l.Rebuilt = openChecked(cache, l.Manifest, l.Manifest == fresh, len(l.Journal) > 0)
	}
	l.Fresh = l.Manifest == fresh
	if l.Rebuilt != "" {
		l.Fresh = true
		l.Manifest, l.Journal = fresh, nil
		l.Bleve, l.InMemory = rebuild(cache)
	}
	return l
}

// openChecked opens the bleve index in cache when it can be trusted with
// manifest m, or says why not: its folder missing (unless m is fresh),
// damaged segments, an error from bleve, or a document count that is not
// m's chunk count (unless files were in flight).
func openChecked(cache string, m *Manifest, fresh, inFlight bool) (bleve.Index, string) {
	if !fresh {
		if _, err := os.Stat(filepath.Join(cache, BleveDir)); err != nil {
			return nil, "its bleve folder is missing"
		}
	}
	bi, err := openVerified(filepath.Join(cache, BleveDir))
	switch {
	case errors.Is(err, ErrDamaged):
		return nil, err.Error()
	case err != nil:
		return nil, fmt.Sprintf("bleve cannot open it (%v)", err)
	}
	if why := consistent(bi, m, inFlight); why != "" {
		bi.Close()
		return nil, why
	}
	return bi, ""
}

// rebuild empties the cache folder of everything an index keeps there and
// creates an empty bleve index, or an in-memory one when it cannot (the
// error says why).
func rebuild(cache string) (bleve.Index, error) {
	os.RemoveAll(filepath.Join(cache, BleveDir))
	os.Remove(filepath.Join(cache, ManifestFile))
	os.Remove(filepath.Join(cache, OldManifestFile))
	os.Remove(filepath.Join(cache, DamagedFile))
	os.Remove(filepath.Join(cache, VerifiedFile))
	os.Remove(filepath.Join(cache, ManifestCheckedFile))
	removeOtherSymbolFiles(cache, "")
	bi, err := Open(filepath.Join(cache, BleveDir))
	if err != nil {
		bi, _ = bleve.NewMemOnly(NewMapping())
	}
	return bi, err
}

// consistent says why bleve and the manifest disagree, or "": bleve
// must hold one document per chunk the manifest lists (unless a journal
// says files were in flight: those are purged and re-indexed).
func consistent(bi bleve.Index, m *Manifest, inFlight bool) string {
	if inFlight {
		return ""
	}
	want := m.chunks // counted by the decode: no pass over the entries
	got, err := bi.DocCount()
	if err != nil {
		return fmt.Sprintf("bleve cannot count its documents (%v)", err)
	}
	if got != want {
		return fmt.Sprintf("its bleve index holds %d documents where the manifest lists %d chunks", got, want)
	}
	return ""
}

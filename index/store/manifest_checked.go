package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ManifestCheckedFile, in a root's cache folder, names the manifest whose
// checksum last matched: its size, modification time and file number.
// The manifest is written whole (a temporary file renamed over it) and
// never changed in place, so its checksum is computed once after each
// write, not at every open (on the Linux tree, 130 MB read through: 8 %
// of a warm start's CPU). As for the segments (VerifiedFile), a manifest
// changed since (a torn write, another program's) has another size, time
// or number and is checked again; the decoder's own checks (counts
// against the bytes left, each string within the file) hold at every
// open.
const ManifestCheckedFile = "manifest.ok"

// manifestKey names the manifest file of info, or "" when unknown.
func manifestKey(info fs.FileInfo) string {
	if info == nil {
		return ""
	}
	return fmt.Sprintf("%d %d %d", info.Size(), info.ModTime().UnixNano(), fileNumber(info))
}

// manifestChecked reports whether the manifest of info (as opened) is
// the one whose checksum last matched.
func manifestChecked(dir string, info fs.FileInfo) bool {
	key := manifestKey(info)
	b, err := os.ReadFile(filepath.Join(dir, ManifestCheckedFile))
	return err == nil && key != "" && strings.TrimSpace(string(b)) == key
}

// recordManifestChecked records that the manifest of info matched its
// checksum; best effort (without the record the next open checks it).
func recordManifestChecked(dir string, info fs.FileInfo) {
	key := manifestKey(info)
	if key == "" {
		return
	}
	path := filepath.Join(dir, ManifestCheckedFile)
	if err := os.WriteFile(path+".tmp", []byte(key+"\n"), 0o644); err == nil {
		os.Rename(path+".tmp", path)
	}
}

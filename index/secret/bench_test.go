package secret

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRedactGoroot runs Redact over every .go file of GOROOT/src:
// the cost it adds to a cold build (which reads each file once).
func BenchmarkRedactGoroot(b *testing.B) {
	var files [][]byte
	total := 0
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	filepath.WalkDir(filepath.Join(strings.TrimSpace(string(out)), "src"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".go" {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
				total += len(data)
			}
		}
		return nil
	})
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			Redact(f)
		}
	}
	b.ReportMetric(float64(len(files)), "files")
}

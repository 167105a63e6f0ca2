package index

import (
	"path"
	"strings"

	"github.com/askls/askls/corpus"
)

// languageOf names the language of a file from its name ("go", "python",
// ...), "text" for anything else.
func languageOf(p string) string {
	base := path.Base(p)
	switch base {
	case "Makefile", "makefile", "GNUmakefile":
		return "make"
	case "Dockerfile":
		return "dockerfile"
	case "Rakefile", "Gemfile":
		return "ruby"
	}
	ext := strings.ToLower(path.Ext(base))
	if l, ok := languageByExt[ext]; ok {
		return l
	}
	return "text"
}

var languageByExt = map[string]string{
	".go":    "go",
	".py":    "python",
	".pyi":   "python",
	".js":    "javascript",
	".mjs":   "javascript",
	".cjs":   "javascript",
	".jsx":   "javascript",
	".ts":    "typescript",
	".tsx":   "typescript",
	".mts":   "typescript",
	".cts":   "typescript",
	".rs":    "rust",
	".java":  "java",
	".kt":    "kotlin",
	".c":     "c",
	".h":     "c",
	".cc":    "cpp",
	".cpp":   "cpp",
	".cxx":   "cpp",
	".hpp":   "cpp",
	".hh":    "cpp",
	".hxx":   "cpp",
	".cs":    "csharp",
	".rb":    "ruby",
	".php":   "php",
	".lua":   "lua",
	".sh":    "shell",
	".bash":  "shell",
	".zsh":   "shell",
	".s":     "asm",
	".md":    "markdown",
	".txt":   "text",
	".json":  "json",
	".yaml":  "yaml",
	".yml":   "yaml",
	".toml":  "toml",
	".html":  "html",
	".css":   "css",
	".sql":   "sql",
	".proto": "proto",
	".mod":   "gomod",
	".swift": "swift",
	".scala": "scala",
}

// binaryExt lists extensions that are never text; such files are skipped
// without being read.
var binaryExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".bmp": true, ".ico": true, ".webp": true,
	".pdf": true, ".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true, ".7z": true, ".tar": true,
	".exe": true, ".dll": true, ".so": true, ".dylib": true, ".a": true, ".o": true, ".obj": true, ".lib": true,
	".class": true, ".jar": true, ".wasm": true, ".pyc": true, ".syso": true,
	".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true,
	".mp3": true, ".mp4": true, ".wav": true, ".ogg": true, ".mov": true, ".avi": true,
	".db": true, ".sqlite": true, ".bin": true, ".dat": true,
}

// isTestPath reports whether p is a test file or test data, by the
// conventions corpus.Classify knows.
func isTestPath(p string) bool { return corpus.Classify(p).Has(corpus.Test) }

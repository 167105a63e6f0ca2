package chunk

import (
	"path"
	"strings"
)

// Language names the language of a file from its name ("go", "python",
// ...), "text" for anything else.
func Language(p string) string {
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
	".c++":   "cpp",
	".h++":   "cpp",
	".ipp":   "cpp", // implementation headers: out-of-line members
	".tpp":   "cpp",
	".txx":   "cpp",
	".tcc":   "cpp",
	".inl":   "cpp",
	".ixx":   "cpp", // module interfaces
	".cppm":  "cpp",
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

package chunk

import (
	"os"
	"strings"
	"testing"
)

// The README names every language the outliners cut into units.
func TestReadmeListsEveryOutlinedLanguage(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("no README here")
	}
	readme := strings.Join(strings.Fields(string(b)), " ")
	names := map[string]string{"javascript": "JavaScript", "typescript": "TypeScript", "csharp": "C#", "cpp": "C/C++",
		"c": "C/C++", "python": "Python", "java": "Java,", "kotlin": "Kotlin", "rust": "Rust", "ruby": "Ruby",
		"php": "PHP", "lua": "Lua", "shell": "shell scripts"}
	for lang := range outlineExtractors {
		name, ok := names[lang]
		if !ok {
			t.Errorf("outlined language %q has no README name in this test", lang)
			continue
		}
		if !strings.Contains(readme, name) {
			t.Errorf("README does not list %s (%s) among the outlined languages", name, lang)
		}
	}
}

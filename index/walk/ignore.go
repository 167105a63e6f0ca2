package walk

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// alwaysSkipped folders are never walked, whatever the ignore files say.
var alwaysSkipped = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".jj": true,
	"node_modules": true, "__pycache__": true, ".venv": true, ".tox": true,
	".mypy_cache": true, ".pytest_cache": true, ".idea": true, ".gradle": true,
}

// vendorFolders are dependency folders skipped unless Options.IncludeVendor.
var vendorFolders = map[string]bool{"vendor": true, "third_party": true}

// ignoreFiles are read in every folder, in this order (later rules win).
var ignoreFiles = []string{".gitignore", ".asklsignore"}

// rule is one line of an ignore file.
type rule struct {
	re      *regexp.Regexp // over the path relative to the rule's folder; nil for the string tests
	negate  bool
	dirOnly bool
	src     string // where the line is: ".gitignore", "drivers/.gitignore", ".git/info/exclude", ...
	line    int    // 1-based line number in src
	text    string // the line as written (trailing spaces trimmed)

	// A faster test than re for the common shapes (see fastMatcher);
	// fast == matchRegexp falls back to re. Every walk asks each rule of
	// a path's folders about the path (a kernel tree: 78,000 files, ~140
	// rules above each), so this is the walk's inner loop.
	fast matchKind
	lit  string
	// need is a literal every path re matches holds (the longest of its
	// top-level ones, see needLiteral), or "": a path without it is no
	// match, with no regexp run (a kernel's "*.asn1.[ch]" needs ".asn1.").
	need string
}

// matchKind is how a rule tests a path.
type matchKind uint8

const (
	matchRegexp     matchKind = iota // re over the path relative to the rule's folder
	matchPath                        // the path equals lit ("/vmlinux")
	matchBase                        // the base name equals lit ("Module.symvers")
	matchBaseSuffix                  // the base name ends with lit ("*.o")
	matchBasePrefix                  // the base name starts with lit ("vmlinux*")
	matchBaseInfix                   // the base name contains lit ("*~*")
	matchBaseRegexp                  // re over the base name ("*.[ch]", "*.c.[012]*.*")
)

// matches reports whether the rule's pattern matches sub, a slash path
// relative to the rule's folder, whose last element is base.
func (r *rule) matches(sub, base string) bool {
	switch r.fast {
	case matchPath:
		return sub == r.lit
	case matchBase:
		return base == r.lit
	case matchBaseSuffix:
		return strings.HasSuffix(base, r.lit)
	case matchBasePrefix:
		return strings.HasPrefix(base, r.lit)
	case matchBaseInfix:
		return strings.Contains(base, r.lit)
	case matchBaseRegexp:
		return strings.Contains(base, r.need) && r.re.MatchString(base)
	}
	return strings.Contains(sub, r.need) && r.re.MatchString(sub)
}

// fastMatcher picks a string test equivalent to the regexp of pattern
// (the line without "!", leading "/" and trailing "/"; anchored when the
// line had a slash before its end): a literal, or a literal with one "*"
// at either end or both, in a pattern without a slash (a base name, at
// any depth, as "*" never crosses a slash). Anything else keeps the
// regexp.
func fastMatcher(pattern string, anchored bool) (matchKind, string) {
	if strings.ContainsAny(pattern, "?[\\") {
		return matchRegexp, ""
	}
	if anchored {
		if strings.Contains(pattern, "*") || strings.HasPrefix(pattern, "/") {
			return matchRegexp, ""
		}
		return matchPath, pattern
	}
	if strings.Contains(pattern, "/") {
		return matchRegexp, ""
	}
	lead := strings.HasPrefix(pattern, "*")
	trail := strings.HasSuffix(pattern, "*")
	lit := strings.Trim(pattern, "*")
	if lit == "" || strings.Contains(lit, "*") {
		return matchRegexp, "" // "*", "**", "a*b"
	}
	if pattern != lit && strings.Count(pattern, "*") > 2 {
		return matchRegexp, "" // "**x"
	}
	switch {
	case lead && trail:
		return matchBaseInfix, lit
	case lead:
		return matchBaseSuffix, lit
	case trail:
		return matchBasePrefix, lit
	}
	return matchBase, lit
}

// Ignorer answers "is this path ignored" for one root with gitignore
// semantics: rules from .git/info/exclude and Options.Exclude apply
// everywhere, then each folder's .gitignore and .asklsignore, deeper
// folders and later lines winning. It reads ignore files lazily and caches
// them; it is safe for concurrent use.
type Ignorer struct {
	root   string // absolute folder
	global ruleList
	mu     sync.Mutex
	dirs   map[string]ruleList // folder rel path ("" for the root) -> its rules
}

// maxIgnoreBytes caps an ignore file; a longer one is not read.
const maxIgnoreBytes = 1 << 20

// NewIgnorer returns the Ignorer of root with the extra patterns of
// exclude. configDir is the user's configuration folder where git looks
// for its global ignore file and configuration ($XDG_CONFIG_HOME, read by
// the command); "" means ~/.config, as git does.
func NewIgnorer(root string, exclude []string, configDir string) *Ignorer {
	ig := &Ignorer{root: root, dirs: map[string]ruleList{}}
	global := globalExcludes(configDir) // the lowest precedence, as in git
	if data, _, err := ReadCapped(filepath.Join(root, ".git", "info", "exclude"), maxIgnoreBytes); err == nil {
		global = append(global, parseIgnore(data, ".git/info/exclude")...)
	}
	global = append(global, parseIgnore([]byte(strings.Join(exclude, "\n")), "the exclude option")...)
	ig.global = newRuleList(global)
	return ig
}

// reset forgets the cached ignore files (they may have changed).
func (ig *Ignorer) Reset() {
	ig.mu.Lock()
	ig.dirs = map[string]ruleList{}
	ig.mu.Unlock()
}

func (ig *Ignorer) rulesOf(dir string) ruleList { return ig.rulesListed(dir, nil) }

// rulesListed is rulesOf for a folder whose listing names which of
// ignoreFiles it holds (listed; nil: unknown, every one is tried).
func (ig *Ignorer) rulesListed(dir string, listed []string) ruleList {
	ig.mu.Lock()
	l, ok := ig.dirs[dir]
	ig.mu.Unlock()
	if ok {
		return l
	}
	var rs []rule
	names := ignoreFiles
	if listed != nil {
		names = listed
	}
	if len(names) == 0 {
		return ruleList{} // nothing to read or to cache (most folders)
	}
	for _, name := range names {
		data, _, err := ReadCapped(filepath.Join(ig.root, filepath.FromSlash(dir), name), maxIgnoreBytes)
		if err == nil {
			rs = append(rs, parseIgnore(data, path.Join(dir, name))...)
		}
	}
	l = newRuleList(rs)
	ig.mu.Lock()
	ig.dirs[dir] = l
	ig.mu.Unlock()
	return l
}

// ignored reports whether rel (slash path relative to the root) is ignored
// by the rules of its own folders. It does not look at the parents: the
// walk never enters an ignored folder; use IgnoredPath for a lone path.
func (ig *Ignorer) ignored(rel string, isDir bool) bool {
	return ig.ignoredBy(rel, isDir) != nil
}

// ignoredBy is ignored that also says why: the rule that ignores rel
// (the last matching line, as in git), or nil when rel is not ignored.
func (ig *Ignorer) ignoredBy(rel string, isDir bool) *rule {
	dir := ""
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir = rel[:i]
	}
	return decide(ig.chain(dir), rel, isDir)
}

// ruleSet is the rules of one ignore source with how much of a path
// relative to the root to drop to make it relative to the rules' folder.
type ruleSet struct {
	ruleList
	skip int
}

// chain lists the rule sets that apply to the entries of folder dir (""
// for the root), lowest precedence first: the global rules, then the
// rules of each folder from the root down to dir.
func (ig *Ignorer) chain(dir string) []ruleSet {
	chain := []ruleSet{{ruleList: ig.global}, {ruleList: ig.rulesOf("")}}
	if dir == "" {
		return chain
	}
	for i := 0; i <= len(dir); i++ {
		if i == len(dir) || dir[i] == '/' {
			chain = append(chain, ruleSet{ruleList: ig.rulesOf(dir[:i]), skip: i + 1})
		}
	}
	return chain
}

// subChain is chain(dir) given chain(parent of dir): the walk extends its
// parent's chain instead of building it again for every folder. listed
// are the ignore files dir's listing holds (listedIgnoreFiles).
func (ig *Ignorer) subChain(parent []ruleSet, dir string, listed []string) []ruleSet {
	l := ig.rulesListed(dir, listed)
	if len(l.rules) == 0 {
		return parent // no rules to add: the parent's chain, not a copy
	}
	return append(parent[:len(parent):len(parent)], ruleSet{ruleList: l, skip: len(dir) + 1})
}

// listedIgnoreFiles are the ignore files a folder's listing holds, in
// ignoreFiles' order; never nil.
func listedIgnoreFiles(entries []dirent) []string {
	listed := []string{}
	for _, name := range ignoreFiles {
		for _, e := range entries {
			if e.name == name {
				listed = append(listed, name)
				break
			}
		}
	}
	return listed
}

// decide finds the rule of chain that decides rel: the last one that
// matches, searched from the end; nil when none does or it negates.
func decide(chain []ruleSet, rel string, isDir bool) *rule {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for k := len(chain) - 1; k >= 0; k-- {
		set := &chain[k]
		if len(set.rules) == 0 {
			continue
		}
		if i := set.last(rel[set.skip:], base, isDir); i >= 0 {
			if r := &set.rules[i]; !r.negate {
				return r
			}
			return nil
		}
	}
	return nil
}

// IgnoredPath reports whether rel or any folder above it is ignored or
// always skipped.
func (ig *Ignorer) IgnoredPath(rel string, includeVendor bool) bool {
	parts := strings.Split(rel, "/")
	for i := range parts {
		isDir := i < len(parts)-1
		if isDir && (alwaysSkipped[parts[i]] || (!includeVendor && vendorFolders[parts[i]])) {
			return true
		}
		if ig.ignored(strings.Join(parts[:i+1], "/"), isDir) {
			return true
		}
	}
	return false
}

// parseIgnore reads gitignore syntax; src names the file in messages.
func parseIgnore(data []byte, src string) []rule {
	var rs []rule
	n := 0
	for text := range strings.Lines(string(data)) {
		n++
		line := trimIgnoreLine(strings.TrimRight(strings.TrimSuffix(text, "\n"), "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := rule{src: src, line: n, text: line}
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		anchored := strings.Contains(line, "/")
		line = strings.TrimPrefix(line, "/")
		expr := ignoreExpr(line, anchored)
		r.fast, r.lit = fastMatcher(line, anchored)
		if r.fast == matchRegexp && !anchored && !strings.Contains(line, "/") && !strings.Contains(strings.TrimPrefix(expr, "(?:.*/)?"), ".*") {
			// A base-name pattern whose expression cannot cross a
			// slash ("*" is "[^/]*"; no "**" segment): match it on the
			// base name, without the leading "(?:.*/)?" to backtrack.
			r.fast = matchBaseRegexp
			expr = strings.TrimPrefix(expr, "(?:.*/)?")
		}
		if r.fast == matchRegexp || r.fast == matchBaseRegexp {
			// The string tests need no regexp: theirs, quoted literals
			// and "[^/]*", always compiles.
			re, err := regexp.Compile("^" + expr + "$")
			if err != nil {
				continue // a line git would not understand either
			}
			r.re, r.need = re, needLiteral(expr)
		}
		rs = append(rs, r)
	}
	return rs
}

// needLiteral is the longest literal of the top-level concatenation of
// expr (an ignore rule's expression, see ignoreExpr), which every string
// it matches holds; "" when it has none or is not a concatenation.
func needLiteral(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	need := ""
	for _, sub := range subs {
		if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 && len(string(sub.Rune)) > len(need) {
			need = string(sub.Rune)
		}
	}
	return need
}

// ignoreExpr is the regular expression (without ^ and $) of an ignore
// pattern over a path relative to the rule's folder; line has lost its
// "!", its trailing "/" and one leading "/", and anchored says whether it
// had a slash before its end.
func ignoreExpr(line string, anchored bool) string {
	expr := globToRegexp(line)
	if anchored && strings.Contains(expr, "(?:.*/)?") && !strings.Contains(line, "/") {
		expr = strings.TrimPrefix(expr, "(?:.*/)?")
	}
	if !anchored {
		expr = "(?:.*/)?" + strings.TrimPrefix(expr, "(?:.*/)?")
	}
	return expr
}

// trimIgnoreLine drops a line's trailing spaces, as git does, except one
// escaped with a backslash ("foo\\ " names "foo ").
func trimIgnoreLine(line string) string {
	for strings.HasSuffix(line, " ") {
		body := line[:len(line)-1]
		if slashes := len(body) - len(strings.TrimRight(body, `\`)); slashes%2 == 1 {
			return line // "\ ": an escaped space ends the pattern
		}
		line = body
	}
	return line
}

// globalExcludes reads git's global ignore file: core.excludesFile from
// the user's git configuration, else configDir/git/ignore
// ($XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore), as git does.
func globalExcludes(configDir string) []rule {
	home, _ := os.UserHomeDir()
	xdg := configDir
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	file := ""
	if xdg != "" {
		file = filepath.Join(xdg, "git", "ignore")
	}
	var configs []string
	if xdg != "" {
		configs = append(configs, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		configs = append(configs, filepath.Join(home, ".gitconfig")) // read last: it wins, as in git
	}
	for _, cfg := range configs {
		if v := gitConfigValue(cfg, "core", "excludesfile"); v != "" {
			file = v
		}
	}
	if strings.HasPrefix(file, "~/") && home != "" {
		file = filepath.Join(home, file[2:])
	}
	if file == "" {
		return nil
	}
	data, _, err := ReadCapped(file, maxIgnoreBytes)
	if err != nil {
		return nil
	}
	return parseIgnore(data, file)
}

// gitConfigValue reads one key of one section of a git config file
// ("[core]" "excludesFile = ~/.gitignore_global"): enough for the global
// ignore file; includes and subsections are not followed.
func gitConfigValue(file, section, key string) string {
	data, _, err := ReadCapped(file, maxIgnoreBytes)
	if err != nil {
		return ""
	}
	in, value := false, ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name := strings.ToLower(strings.TrimSpace(strings.Trim(line, "[]")))
			in = name == section
			continue
		}
		if !in || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), key) {
			value = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return value
}

// CleanRel checks that p is a clean relative slash path inside its root.
func CleanRel(p string) (string, bool) {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	return p, true
}

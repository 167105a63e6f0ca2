package chunk

import (
	"bytes"
	"strings"
)

// The names of C++ functions defined outside their class, as
// implementation headers (foo-inl.h, foo_impl.h, .ipp, .tpp, .inl) hold
// them: `void widget::render(`, `basic_sink<Mutex>::flush_(`,
// `widget::~widget(`, `bool widget::operator()(`, `std::ostream
// &operator<<(`.

// cppOperator matches an operator function's name: `operator()`,
// `operator<<`, `operator[]`, `operator new[]`, `operator""_km`.
const cppOperator = `operator\s*(?:\(\s*\)|\[\s*\]|<=>|<<=?|>>=?|->\*?|\+\+|--|&&|\|\||[-+*/%^&|~!=<>,]=?|new(?:\s*\[\s*\])?|delete(?:\s*\[\s*\])?|""\s*_\w+)`

// cppQualifier matches the classes and namespaces before a name, each
// with its template arguments (one level of nesting): `mylib::`,
// `basic_sink<Mutex>::`, `table<K, std::vector<V>>::`.
const cppQualifier = `(?:[A-Za-z_]\w*(?:<[^<>;()]*(?:<[^<>;()]*>[^<>;()]*)*>)?::)*`

// cName matches the name of a C or C++ function: an identifier, or in
// C++ an operator or a destructor, after any qualifier.
const cName = cppQualifier + `(?:` + cppOperator + `|~?[A-Za-z_]\w*)`

// cppTemplateLine matches a line that is only a template header
// (`template<typename T>`, `template <>`): it belongs to the declaration
// below it.
var cppTemplateLine = lazyRegexp(`^\s*template\s*<.*>\s*$`)

// initListRE matches the start of a constructor's member-initializer
// list: a colon, then a member or base and its initializer's bracket
// (`: name_(`, `: sinks_{`, `: base<T>(`); `ctor() : builds one` in a
// comment is none.
var initListRE = lazyRegexp(`^:\s*[A-Za-z_][\w:]*(?:<[^;{}]*>)?\s*[({]`)

// cppName splits the name a C or C++ rule matched at line[at:] into the
// class it is defined in (the last qualifier without its template
// arguments: basic_sink<Mutex>::flush_ is basic_sink's) and the
// function's own name (flush_, ~widget, operator(), operator bool). A
// conversion operator's type was matched as the name (`widget::operator
// bool(`): the operator before it is taken back.
func cppName(line string, at int, name string) (owner, fn string) {
	before := strings.TrimRight(line[:at], " \t")
	if op := len(before) - len("operator"); op >= 0 && before[op:] == "operator" && (op == 0 || !isWordByte(before[op-1])) {
		start := op
		for start > 0 && (isWordByte(before[start-1]) || strings.IndexByte(":<>,~", before[start-1]) >= 0) {
			start--
		}
		name = before[start:] + " " + name
	}
	qual, fn := splitQualified(name)
	if i := strings.LastIndex(strings.TrimSuffix(qual, "::"), "::"); i >= 0 {
		qual = qual[i+2:]
	}
	owner = strings.TrimSuffix(qual, "::")
	if i := strings.IndexByte(owner, '<'); i >= 0 {
		owner = owner[:i]
	}
	return strings.TrimSpace(owner), fn
}

// splitQualified cuts a qualified name before its own name: the
// operator keyword, else the last "::" outside template arguments.
func splitQualified(name string) (qual, fn string) {
	if i := operatorAt(name); i >= 0 {
		op := strings.Join(strings.Fields(name[i+len("operator"):]), " ")
		if op == "" || !isWordByte(op[0]) {
			op = strings.ReplaceAll(op, " ", "")
		} else {
			op = " " + op // a conversion: operator bool
		}
		return name[:i], "operator" + op
	}
	depth, cut := 0, -1
	for i := 0; i+1 < len(name); i++ {
		switch {
		case name[i] == '<':
			depth++
		case name[i] == '>':
			depth--
		case depth == 0 && name[i] == ':' && name[i+1] == ':':
			cut = i
			i++
		}
	}
	if cut < 0 {
		return "", name
	}
	return name[:cut+2], name[cut+2:]
}

// operatorAt is the index of the word "operator" that names an operator
// function in name, or -1.
func operatorAt(name string) int {
	for i := 0; ; {
		k := strings.Index(name[i:], "operator")
		if k < 0 {
			return -1
		}
		k += i
		end := k + len("operator")
		if (k == 0 || !isWordByte(name[k-1])) && (end == len(name) || !isWordByte(name[end])) {
			return k
		}
		i = end
	}
}

// isWordByte reports whether c may be part of an identifier.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// cppTail returns rest, the text after a function's parameter list,
// without what C++ allows before the body: `const`, `volatile`,
// `noexcept` (with its condition), `override`, `final`, `&`, `&&`, and a
// trailing return type (`-> std::size_t`).
func cppTail(rest []byte) []byte {
	for {
		rest = bytes.TrimSpace(rest)
		switch {
		case bytes.HasPrefix(rest, []byte("->")):
			end := bytes.IndexAny(rest, "{;")
			if end < 0 {
				return nil
			}
			rest = rest[end:]
		case bytes.HasPrefix(rest, []byte("&")):
			rest = rest[1:]
		case bytes.HasPrefix(rest, []byte("noexcept(")):
			rest = rest[closingParen(rest, len("noexcept")):]
		default:
			w := leadingWord(rest)
			switch string(w) {
			case "const", "volatile", "noexcept", "override", "final":
				rest = rest[len(w):]
			default:
				return rest
			}
		}
	}
}

// leadingWord is the identifier rest starts with.
func leadingWord(rest []byte) []byte {
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	return rest[:n]
}

// closingParen is the index just past the parenthesis that closes the
// one at b[at], or len(b) when none does.
func closingParen(b []byte, at int) int {
	depth := 0
	for i := at; i < len(b); i++ {
		switch b[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}

// initListStarts reports whether the colon at content[i] starts a
// constructor's member-initializer list: it is no part of a "::" and the
// parameter list closed just before it (`) :`, `) noexcept :`), so the
// braces after a member's name (`sinks_{std::move(s)}`) initialize it
// and do not open the body.
func initListStarts(content []byte, from, i int) bool {
	if i+1 < len(content) && content[i+1] == ':' || i > 0 && content[i-1] == ':' {
		return false
	}
	before := bytes.TrimRight(content[from:i], " \t\r\n")
	before = bytes.TrimRight(bytes.TrimSuffix(before, []byte("noexcept")), " \t\r\n")
	return bytes.HasSuffix(before, []byte(")"))
}

// braceInitializes reports whether the brace at content[i] follows a
// name (`sinks_{`, `base<T>{`): a member's or a base's initializer.
func braceInitializes(content []byte, i int) bool {
	return i > 0 && (isWordByte(content[i-1]) || content[i-1] == '>')
}

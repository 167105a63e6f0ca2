package chunk

// The outlines of Java, Kotlin and C#: classes, interfaces, enums,
// records, structs (nested ones too) with their methods and constructors;
// Kotlin funs, objects and companion objects; C# namespaces (block or
// file-scoped), properties, operators and delegates.
func init() {
	// A type: Map<String, List<T>>, int[], Task<int>?, a.b.C.
	const typ = `[\w.$]+(?:\s*<[^()]*>)?(?:\[\])*\??`
	const annotations = `(?:@\w+(?:\([^)]*\))?\s+)*`
	const mods = `(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|virtual|async|sealed|non-sealed|extern|unsafe|new|default|strictfp|partial|readonly|file|required|transient|volatile)\s+)*`
	typeDecl := decl("$1", `^\s*`+annotations+mods+`(class|interface|enum|record|struct|@interface)\s+([A-Za-z_]\w*)`, "class", "interface", "enum", "record", "struct")
	method := member("method", `^\s*`+annotations+mods+`(?:<[^>]+>\s+)?`+typ+`\s+([A-Za-z_]\w*)\s*(?:<[^>]*>)?\s*\((?:[^;]*$|.*\)\s*=>.*$)`, "(")
	// A method without a body: an interface's, an abstract or native one.
	bodiless := signature([]string{"interface", "class", "enum", "record"}, "method",
		`^\s*`+annotations+mods+`(?:<[^>]+>\s+)?`+typ+`\s+([A-Za-z_]\w*)\s*\([^;{]*\)\s*(?:throws\s[^;{]*)?;\s*$`, "(")
	// A method whose name starts the line below its modifiers, type
	// parameters and return type (the JDK's style: `public <T>
	// HttpResponse<T>` then `send(HttpRequest req, …) {`), with a body
	// or without one.
	nameBelow := member("method", `^\s*([A-Za-z_]\w*)\s*\((?:[^;]*$|[^;{]*\)\s*(?:throws\s[^;{]*)?;\s*$)`, "(")
	nameBelow.above = lazyRegexp(`^` + annotations + mods + `(?:<[^()=;{}]*>\s*)?[\w.$]+(?:\s*<[^()=;{}]*>)?(?:\[\])*$`)
	ctor := member("method", `^\s*`+annotations+mods+`([A-Z]\w*)\s*\([^;]*$`, "(")
	ctor.ctor = true
	register(&outliner{style: braces, lineComment: "//", rules: []declRule{typeDecl, method, bodiless, ctor, nameBelow}}, "java")

	register(&outliner{style: braces, lineComment: "//", rules: []declRule{
		decl("namespace", `^\s*namespace\s+([\w.]+)`, "namespace"),
		typeDecl,
		method,
		bodiless,
		ctor,
		member("property", `^\s*`+annotations+mods+typ+`\s+([A-Z]\w*)\s*(?:\{|=>|$)`),
		member("method", `^\s*`+annotations+mods+`(?:(?:implicit|explicit)\s+)?(?:`+typ+`\s+)?operator\s*([^\s(]+)\s*\(`, "operator"),
		decl("delegate", `^\s*`+annotations+mods+`delegate\s+`+typ+`\s+([A-Za-z_]\w*)\s*[<(]`, "delegate"),
	}}, "csharp")

	const kmods = `(?:(?:public|private|protected|internal|open|abstract|sealed|data|enum|annotation|inner|value|override|final|inline|suspend|tailrec|operator|infix|external|expect|actual|lateinit|const|fun)\s+)*`
	const kann = `(?:@[\w:.]+(?:\([^)]*\))?\s+)*`
	companion := decl("object", `^\s*`+kann+kmods+`companion\s+object(?:\s+([A-Za-z_]\w*))?`, "companion")
	companion.defName = "Companion"
	register(&outliner{style: braces, lineComment: "//", rules: []declRule{
		companion,
		decl("$1", `^\s*`+kann+kmods+`(class|interface|object)\s+([A-Za-z_]\w*)`, "class", "interface", "object"),
		decl("func", `^\s*`+kann+kmods+`fun\s+(?:<[^>]*>\s*)?(?:[\w.]+(?:<[^>]*>)?\??\.)?([A-Za-z_]\w*|`+"`[^`]+`"+`)\s*\(`, "fun"),
		decl("type", `^\s*`+kann+kmods+`typealias\s+([A-Za-z_]\w*)`, "typealias"),
	}}, "kotlin")
}

package chunk

// The outline of Rust: fns (any visibility, const/async/unsafe/extern),
// structs, enums, unions, traits with their default and required methods,
// impl blocks named after the type they implement (impl<T> Trait for
// Type<T> where ... is "Type"), modules, type aliases and macro_rules!
// (the fns a macro body defines are inside it).
func init() {
	const vis = `(?:pub(?:\s*\([^)]*\))?\s+)?`
	register(&outliner{style: braces, lineComment: "//", lifetimes: true, macroBody: true, rules: []declRule{
		decl("func", `^\s*`+vis+`(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)`, "fn"),
		decl("$1", `^\s*`+vis+`(?:unsafe\s+)?(?:auto\s+)?(struct|enum|trait|union)\s+([A-Za-z_]\w*)`, "struct", "enum", "trait", "union"),
		decl("impl", `^\s*(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s+(?:!?[^{]*?\s+for\s+)?(?:&(?:'\w+\s+)?(?:mut\s+)?)?(?:dyn\s+)?([A-Za-z_][\w:]*)`, "impl"),
		decl("module", `^\s*`+vis+`mod\s+([A-Za-z_]\w*)\s*\{`, "mod"),
		decl("macro", `^\s*(?:#\[macro_export\]\s*)?macro_rules!\s*([A-Za-z_]\w*)`, "macro_rules"),
		decl("type", `^\s*`+vis+`type\s+([A-Za-z_]\w*)\s*(?:<[^=]*>)?\s*=`, "type"),
	}}, "rust")
}

package index

// SymbolsNamed returns every symbol whose name is exactly name (same
// case), in the order of Symbols (tests after the rest), with no limit
// (store.SymbolTable.Named): what a search for the methods that implement
// an interface needs, where Symbols would fill its limit with prefix
// matches ("ReadAt" for "Read") or cut the exact ones.
func (s *Snapshot) SymbolsNamed(name string) []Symbol {
	return s.st.tab.Named(name, s.st.files)
}

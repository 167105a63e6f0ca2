package words

import "strings"

// stop holds the words a question is phrased with that say nothing about
// the code, each as written and as its stem: English function words, the
// verbs and nouns of questions about code ("where", "function",
// "implemented"), the heads of negative contractions ("doesn't" is cut to
// "doesn" by CutContraction) and the Latin abbreviations of prose ("e.g.",
// "i.e."). Terms are stemmed, so each word is kept in its stemmed form
// too: "does" is the term "doe", which would match drivers/pci/doe.c and
// every DOE identifier of a tree.
var stop = Set(`a an the and or but if of to in on at by for from with without into onto
	over under about as is are was were be been being do does did done doing have has had having
	it its it's this that these those there here then than so such not no nor only own same too very
	can could should would will shall may might must i me my we our you your he she they them their
	what which who whom whose where when why how all any both each few more most other some
	just also again out up down off further while until because before after above below between through during
	where's what's how's get gets got make makes made use used uses using way ways thing things
	code function functions method methods implemented implement implementation defined define
	find look happens happen actually called call calls go golang
	aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shan shouldn wasn weren won wouldn
	ll ve re e.g i.e eg ie vs etc like one see tell show whether instead even ever really`)

// IsStop reports whether a lower-case word or term is a stop word.
func IsStop(w string) bool { return stop[w] }

// Set is the set of the words of list (separated by white space) and
// their stems.
func Set(list string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(list) {
		set[w] = true
		set[string(Stem([]byte(w)))] = true
	}
	return set
}

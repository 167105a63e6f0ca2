package rank

import (
	"slices"
	"testing"
)

// A test word asks for tests when written as English, not inside an
// identifier written as code; in a project named for testing it names
// the project's subject.
func TestAskingForTests(t *testing.T) {
	for _, c := range []struct {
		q        string
		projects []string
		want     bool
	}{
		{"how is the lexer tested", nil, true},
		{"which tests cover the lexer", nil, true},
		{"where does runAllTests collect the suites", nil, false},
		{"where does RUN_ALL_TESTS collect the suites", nil, false},
		{"how does a failing test report its values", []string{"quicktest"}, false},
		{"how does a failing test report its values", []string{"lexer"}, true},
	} {
		p, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		p.DropNames(c.projects)
		if p.AboutTests != c.want {
			t.Errorf("%q in %v: asks for tests %v, want %v", c.q, c.projects, p.AboutTests, c.want)
		}
	}
}

// A question's quoted phrases, in double or single quotes, are found;
// an apostrophe is not a quote.
func TestQuotedPhrases(t *testing.T) {
	t.Parallel()
	for q, want := range map[string][]string{
		`where does the 'Connection  Reset' message come from?`: {"connection reset"},
		`why does it print "bad handshake" and 'timed out'`:     {"bad handshake", "timed out"},
		`the user's config and the server's cache`:              nil,
		`don't retry; it's 'x'`:                                 nil, // one letter is no phrase
	} {
		if got := quotedPhrases(q); !slices.Equal(got, want) {
			t.Errorf("quotedPhrases(%q) = %q, want %q", q, got, want)
		}
	}
	text := []byte("\treturn errors.New(\"bad  Handshake\")\n")
	if got := quoteFactor(text, []string{"bad handshake", "timed out"}, 2); got != 1.5 {
		t.Errorf("quoteFactor holding one of two phrases = %v, want 1.5", got)
	}
}

func TestAsksForOverview(t *testing.T) {
	t.Parallel()
	for q, want := range map[string]bool{
		"Is there a guide to bracket syntax?":           true,
		"are there examples of middleware":              true,
		"What is msgpack used for?":                     true,
		"What's Django, and where do I start reading?":  true,
		"What is the default page size?":                false,
		"What is a session?":                            false,
		"Where is there a retry loop?":                  false,
		"How does the template engine parse pipelines?": false,
		"is": false,
		"":   false,
	} {
		if got := AsksForOverview(q); got != want {
			t.Errorf("AsksForOverview(%q) = %v, want %v", q, got, want)
		}
	}
}

// The English of a question is no query term: contractions, "e.g.",
// stop words in their stemmed form.
func TestQueryTermsDropQuestionEnglish(t *testing.T) {
	terms, _, _, _, _ := queryTerms("why doesn't it stop, e.g. when I’ve set i.e. the Go's limit vs. the rest")
	for _, bad := range []string{"doesn", "e.g", "i.e", "ve", "vs"} {
		if slices.Contains(terms, bad) {
			t.Errorf("queryTerms kept %q: %v", bad, terms)
		}
	}
	// Stop words are dropped in their stemmed form too: "does" is the
	// term "doe", which would find pci/doe.c for any question.
	terms, _, _, _, _ = queryTerms("how does this only work when it has been using the scheduler")
	for _, bad := range []string{"doe", "thi", "onli", "ha", "us"} {
		if slices.Contains(terms, bad) {
			t.Errorf("queryTerms kept %q: %v", bad, terms)
		}
	}
	// An apostrophe in code is not a contraction.
	if terms, _, _, _, _ := queryTerms("where is config['timeout'] read"); !slices.Contains(terms, "timeout") {
		t.Errorf("queryTerms dropped timeout: %v", terms)
	}
}

// A project's name is no evidence, also when the question writes it as
// the crate or module it is (an underscore for the name's hyphen): the
// name, its parts and the identifier go; the rest stays. A crate that
// qualifies a name with "::" is no identifier in any project.
func TestDropNamesOfTheProject(t *testing.T) {
	for _, c := range []struct {
		q, project string
		terms      []string
		idents     []string
	}{
		{"how does fzf read its options", "fzf", []string{"read", "option"}, nil},
		{"when I call tidy_json::parse_str how are the bytes read", "tidy-json", []string{"parse_str", "pars", "str", "byte", "read"}, []string{"parse_str"}},
		{"when I call tidy_json::parse_str how are the bytes read", "tidy_json", []string{"parse_str", "pars", "str", "byte", "read"}, []string{"parse_str"}},
		{"when I call tidy_json::parse_str how are the bytes read", "other", []string{"tidy_json", "tidi", "json", "parse_str", "pars", "str", "byte", "read"}, []string{"parse_str"}},
	} {
		p, err := ParseQuery(c.q)
		if err != nil {
			t.Fatal(err)
		}
		p.DropNames([]string{c.project})
		if !slices.Equal(p.Terms, c.terms) || !slices.Equal(p.Idents, c.idents) {
			t.Errorf("%q in %s: terms %q idents %q, want %q %q", c.q, c.project, p.Terms, p.Idents, c.terms, c.idents)
		}
	}
}

package tools

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/askls/askls/index"
	"github.com/askls/askls/internal/indextest"
)

// fixtureSnapshot is the real index over a txtar fixture of testdata.
func fixtureSnapshot(t *testing.T, name string) *index.Snapshot {
	t.Helper()
	return indextest.Snapshot(t, "../testdata/"+name)
}

// implementers lists what FindImplementations finds for the type name
// declared in file p, as "Type" or "Type<Via" sorted.
func implementers(t *testing.T, snap *index.Snapshot, name, p string, tests bool) (Implementations, string) {
	t.Helper()
	def, ok := ImplementableAt(snap, name, p, 0)
	if !ok || def.Path != p {
		t.Fatalf("no implementable %s in %s (got %+v)", name, p, def)
	}
	ims, err := FindImplementations(context.Background(), snap, def, tests)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, im := range ims.Types {
		s := im.Type
		if im.Via != "" {
			s += "<" + im.Via
		}
		got = append(got, s)
		if text, _ := snap.Content(im.Path); !strings.Contains(strings.Split(string(text), "\n")[im.Line-1], im.Type) {
			t.Errorf("%s: %s:%d does not declare %s", name, im.Path, im.Line, im.Type)
		}
	}
	sort.Strings(got)
	return ims, strings.Join(got, " ")
}

func TestFindImplementationsOfAGoInterface(t *testing.T) {
	snap := fixtureSnapshot(t, "implementations.txtar")
	for _, c := range []struct {
		name  string
		tests bool
		want  string
	}{
		// circle and *Square by their methods; labelled embeds the
		// interface, bigCircle embeds circle. partial lacks a method,
		// wrongSig's Area returns int, fake is a test's.
		{"Shape", false, "Square bigCircle<circle circle labelled"},
		{"Shape", true, "Square bigCircle<circle circle fake labelled"},
		// Named embeds Shape and adds Name: only circle has all three.
		{"Named", false, "bigCircle<circle circle"},
	} {
		_, got := implementers(t, snap, c.name, "shapes/shape.go", c.tests)
		if got != c.want {
			t.Errorf("%s (tests %v): %q, want %q", c.name, c.tests, got, c.want)
		}
	}
	for _, name := range []string{"Any", "Number"} {
		ims, got := implementers(t, snap, name, "shapes/shape.go", false)
		if got != "" || ims.Note == "" {
			t.Errorf("%s: %q, note %q; want no types and a note", name, got, ims.Note)
		}
	}
}

func TestFindImplementationsFromBaseLists(t *testing.T) {
	snap := fixtureSnapshot(t, "implementations.txtar")
	for _, c := range []struct{ name, path, want string }{
		// A keyword argument (metaclass=Model) is no base; a qualified
		// base (base.Model) is.
		{"Model", "models/base.py", "Admin<User Guest User"},
		// Comparable<Task> names Task as a type argument, not a base;
		// Cron's extends is on its second line.
		{"Task", "src/Task.java", "Cron<Job Job"},
		// impl Trait for Type (a path, generics), a supertrait; not the
		// inherent impl Page.
		{"Render", "render/src/lib.rs", "Fancy Page Vec"},
		// T extends Store is a bound, not a base; an alias is none
		// either, and its header ends with its line.
		{"Store", "web/store.ts", "CachedStore<MemoryStore LocalStore MemoryStore"},
	} {
		if _, got := implementers(t, snap, c.name, c.path, false); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFindReferencesToolListsImplementations(t *testing.T) {
	snap := fixtureSnapshot(t, "implementations.txtar")
	out, _, err := runTool(t, snap, "find_references", Args{"name": "Task", "implementations": true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 types in 2 files that implement or extend interface Task (src/Task.java:3)", "src/Cron.java:3:14: public class Cron (through Job)", "src/Job.java:3:14: public class Job implements Task"} {
		if !strings.Contains(out, want) {
			t.Errorf("find_references implementations lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runTool(t, snap, "find_references", Args{"name": "nothingLikeIt", "implementations": true})
	if !strings.HasPrefix(out, "no interface, trait or class named") {
		t.Errorf("an unknown name: %s", out)
	}
}

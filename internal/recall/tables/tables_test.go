package tables

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func TestNormalizeAccepts(t *testing.T) {
	for in, want := range map[string]string{
		"Friends":             "friends",
		"team of the user":    "team_of_the_user",
		"price-list":          "price_list",
		"  Дима  ":            "dima",
		"Команда архитектора": "komanda_arkhitektora",
		"щука-Ёж":             "shchuka_ezh",
		"x__claim":            "x_claim", // no name can forge a kind's own column suffix
	} {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestNormalizeRefusesInjectionWhole(t *testing.T) {
	for in, char := range map[string]rune{
		"field.money; DROP TABLE users": '.',
		"money; DROP TABLE users":       ';',
		`name"`:                         '"',
		"it's":                          '\'',
		"a/*b*/":                        '/',
		"名前":                            '名',
		"ελληνικά":                      'ε',
		"x)--":                          ')',
	} {
		got, err := Normalize(in)
		var ne *NameError
		if !errors.As(err, &ne) || got != "" {
			t.Fatalf("Normalize(%q) = %q, %v; want a NameError", in, got, err)
		}
		if ne.Char != char || !strings.Contains(err.Error(), string(char)) {
			t.Errorf("Normalize(%q): error %q names %q, want %q", in, err, ne.Char, char)
		}
	}
	for _, in := range []string{"select", "DROP", "Table", "", "--", "1st", "sqlite_master", strings.Repeat("a", 64)} {
		if got, err := Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q, want refusal", in, got)
		}
	}
}

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(filepath.Join(dir, "journal.jsonl"), filepath.Join(dir, "cache", "tables.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestHandsAndRebuild(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if _, created, err := s.Create("Friends", t0); err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if _, err := s.Write("friends", "phone", Value{Key: "Dima", Value: "111"}, t0); !errors.Is(err, ErrNoKind) {
		t.Fatalf("write before the kind exists: %v, want ErrNoKind", err)
	}
	if _, _, created, err := s.NewKind("friends", "Phone", t0); err != nil || !created {
		t.Fatalf("new kind: %v %v", created, err)
	}
	if _, err := s.Write("friends", "phone", Value{Key: "Dima", Value: "111", Basis: "said"}, t0); err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(time.Hour)
	if _, err := s.Write("friends", "phone", Value{Key: "Dima", Value: "222"}, t1); err != nil {
		t.Fatal(err)
	}
	cells, err := s.Lookup(Query{Words: Words("what is the phone of Dima")})
	if err != nil || len(cells) != 1 || cells[0].Value != "222" || cells[0].Claim != ClaimStated {
		t.Fatalf("write in place: %+v %v", cells, err)
	}
	// Promote: the list is born, the old value moves with its own time.
	list, created, err := s.Promote("friends", "phone", "", "Dima", "", "", t1.Add(time.Hour))
	if err != nil || !created || list != "friends_phone" {
		t.Fatalf("promote: %q %v %v", list, created, err)
	}
	if _, err := s.Append(list, Value{Key: "Dima", Value: "333"}, t1.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append("friends", Value{Key: "Dima", Value: "x"}, t1); !errors.Is(err, ErrShape) {
		t.Fatalf("append to a root table: %v, want ErrShape", err)
	}
	check := func(s *Store) {
		t.Helper()
		cells, err := s.Lookup(Query{Words: Words("Dima phone")})
		if err != nil || len(cells) != 2 {
			t.Fatalf("after promote: %+v %v", cells, err)
		}
		if cells[0].Table != "friends_phone" || cells[0].Value != "222" || !cells[0].At.Equal(t1) || cells[1].Value != "333" {
			t.Fatalf("moved value lost its own time or order: %+v", cells)
		}
	}
	check(s)
	// The cache is a cache: delete it and the journal rebuilds the same.
	s.Close()
	os.RemoveAll(filepath.Join(dir, "cache"))
	check(open(t, dir))
}

// Drop removes a table whose values moved elsewhere: a root only once its
// lists are gone, and a rebuild from the journal drops it again.
func TestDrop(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.Create("contacts", t0)
	s.NewKind("contacts", "lives", t0)
	s.Write("contacts", "lives", Value{Key: "Tom", Value: "Leeds"}, t0)
	l, _, err := s.Promote("contacts", "lives", "", "Tom", "", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Drop("contacts", t0); !errors.Is(err, ErrShape) {
		t.Fatalf("a root with a list left: %v, want ErrShape", err)
	}
	if err := s.Drop(l, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.Drop("contacts", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.Drop("contacts", t0); !errors.Is(err, ErrNoTable) {
		t.Fatalf("dropping it twice: %v, want ErrNoTable", err)
	}
	gone := func(s *Store) {
		t.Helper()
		if ts, err := s.Tables(); err != nil || len(ts) != 0 {
			t.Fatalf("tables left: %v %v", ts, err)
		}
	}
	gone(s)
	s.Close()
	os.RemoveAll(filepath.Join(dir, "cache"))
	re := open(t, dir)
	gone(re)
	if sk, _ := re.Skipped(); len(sk) != 0 {
		t.Fatalf("every op replays: %+v", sk)
	}
}

func TestCyrillicNamesMeetTheirQuestion(t *testing.T) {
	s := open(t, t.TempDir())
	s.Create("друзья", t0)
	s.NewKind("друзья", "телефон", t0)
	if _, err := s.Write("друзья", "телефон", Value{Key: "Миша", Value: "555"}, t0); err != nil {
		t.Fatal(err)
	}
	cells, _ := s.Lookup(Query{Words: Words("телефон Миша")})
	if len(cells) != 1 || cells[0].Table != "druzya" || cells[0].Kind != "telefon" {
		t.Fatalf("%+v", cells)
	}
}

func TestDescribe(t *testing.T) {
	s := open(t, t.TempDir())
	s.Create("friends", t0)
	s.NewKind("friends", "phone", t0)
	s.NewKind("friends", "city", t0)
	s.Write("friends", "phone", Value{Key: "Dima", Value: "1"}, t0)
	s.Write("friends", "phone", Value{Key: "Misha", Value: "2"}, t0)
	s.Promote("friends", "city", "", "Dima", "", "", t0)
	got, err := s.Describe()
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	if f := got[0]; f.Name != "friends" || f.Shape != ShapeRoot || f.Rows != 2 || strings.Join(f.Kinds, ",") != "city,phone" {
		t.Fatalf("%+v", f)
	}
	if l := got[1]; l.Name != "friends_city" || l.Shape != ShapeList || l.Parent != "friends" || l.ParentKind != "city" || l.Rows != 0 {
		t.Fatalf("%+v", l)
	}
}

// Two stores on one journal and one cache (two sessions of a project)
// catch up at once without applying an op twice.
func TestConcurrentCatchUpAppliesOnce(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.Create("log", t0)
	s.NewKind("log", "entry", t0)
	s.Promote("log", "entry", "", "k", "", "", t0)
	for i := 0; i < 20; i++ {
		if _, err := s.Append("log_entry", Value{Key: "k", Value: "v"}, t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	os.RemoveAll(filepath.Join(dir, "cache"))
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			st, err := Open(filepath.Join(dir, "journal.jsonl"), filepath.Join(dir, "cache", "tables.db"))
			if err == nil {
				st.Close()
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	cells, err := open(t, dir).Lookup(Query{Table: "log_entry", Key: "k"})
	if err != nil || len(cells) != 20 {
		t.Fatalf("want 20 rows after concurrent catch-up, got %d (%v)", len(cells), err)
	}
}

func TestReservedKindRefusedBeforeTheJournal(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.Create("offices", t0)
	for _, k := range []string{"geo", "id", "created", "calendar", "Key", "GEO"} {
		if _, _, _, err := s.NewKind("offices", k, t0); !errors.Is(err, ErrReserved) && !strings.Contains(fmt.Sprint(err), "keyword") {
			t.Fatalf("kind %q: %v", k, err)
		}
	}
	j, _ := os.ReadFile(filepath.Join(dir, "journal.jsonl"))
	if strings.Count(string(j), "\n") != 1 {
		t.Fatalf("a refused kind must not reach the journal:\n%s", j)
	}
	if _, _, _, err := s.NewKind("offices", "geo value", t0); err != nil {
		t.Fatalf("a name around a reserved one is fine: %v", err)
	}
}

func TestReplaySkipsWhatCannotApplyAndRepairMovesIt(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "journal.jsonl")
	// A journal an older memhook wrote: a kind named after a column every
	// row has, a line that is not JSON, a write to a missing kind.
	lines := []string{
		`{"op":"create","table":"offices","at":"2026-11-30T10:00:00Z"}`,
		`{"op":"kind","table":"offices","kind":"geo","at":"2026-11-30T10:00:00Z"}`,
		`not json`,
		`{"op":"kind","table":"offices","kind":"phone","at":"2026-11-30T10:00:00Z"}`,
		`{"op":"write","table":"offices","kind":"geo","key":"madrid","value":"1","claim":"stated","at":"2026-11-30T10:00:00Z"}`,
		`{"op":"write","table":"offices","kind":"phone","key":"madrid","value":"111","claim":"stated","at":"2026-11-30T10:00:00Z"}`,
	}
	os.WriteFile(journal, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	s := open(t, dir)
	cells, err := s.Lookup(Query{Table: "offices", Key: "madrid"})
	if err != nil || len(cells) != 1 || cells[0].Value != "111" {
		t.Fatalf("the ops that apply still apply: %+v %v", cells, err)
	}
	sk, _ := s.Skipped()
	if len(sk) != 3 || !strings.Contains(sk[0].Error, "reserved") || !strings.Contains(sk[1].Error, "not a table op") {
		t.Fatalf("skipped: %+v", sk)
	}
	// A write after the bad lines lands and survives a rebuild.
	if _, err := s.Write("offices", "phone", Value{Key: "barcelona", Value: "222"}, t0); err != nil {
		t.Fatal(err)
	}
	res, err := s.Repair(t0)
	if err != nil || len(res.Removed) != 3 || res.Kept != 4 {
		t.Fatalf("repair: %+v %v", res, err)
	}
	j, _ := os.ReadFile(journal)
	rej, _ := os.ReadFile(journal + RejectedSuffix)
	if strings.Contains(string(j), `"geo"`) || strings.Contains(string(j), "not json") || strings.Count(string(rej), "\n") != 3 || !strings.Contains(string(rej), "not json") {
		t.Fatalf("journal:\n%s\nrejected:\n%s", j, rej)
	}
	if sk, _ := s.Skipped(); len(sk) != 0 {
		t.Fatalf("after repair nothing is skipped: %+v", sk)
	}
	s.Close()
	os.RemoveAll(filepath.Join(dir, "cache"))
	s2 := open(t, dir)
	cells, _ = s2.Lookup(Query{Table: "offices", Kind: "phone", Key: "barcelona"})
	if len(cells) != 1 || cells[0].Value != "222" {
		t.Fatalf("a fresh cache from the repaired journal: %+v", cells)
	}
	again, err := s2.Repair(t0)
	if err != nil || len(again.Removed) != 0 || again.Rejected != "" {
		t.Fatalf("a clean journal is left alone: %+v %v", again, err)
	}
}

func TestRepairRefusesALinkInPlaceOfTheJournal(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	s.Create("offices", t0)
	target := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	os.WriteFile(target, []byte("keep me\n"), 0o644)
	journal := filepath.Join(dir, "journal.jsonl")
	os.Remove(journal)
	if err := os.Symlink(target, journal); err != nil {
		t.Skip("no symlinks here")
	}
	// Refused when read (the safe file layer) or, failing that, when rewritten.
	if _, err := s.Repair(t0); err == nil || !strings.Contains(err.Error(), "not a regular file") && !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("repair through a link: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Fatalf("the link's target was rewritten: %q", b)
	}
}

package tables

import (
	"bytes"
	"testing"
)

func TestWriteTextSaysEachShape(t *testing.T) {
	var b bytes.Buffer
	WriteText(&b, []TableInfo{
		{Name: "friends", Shape: ShapeRoot, Kinds: []string{"city", "phone"}, Rows: 2},
		{Name: "friends_city", Shape: ShapeList, Parent: "friends", ParentKind: "city", Rows: 0},
	})
	if want := "friends  kinds: city, phone  2 rows\nfriends_city  list of friends.city  0 rows\n"; b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	WriteText(&b, nil)
	if b.String() != "no tables yet\n" {
		t.Fatalf("empty: %q", b.String())
	}
}

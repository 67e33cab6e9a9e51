package wire

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCopyTextSearchTypes: COPY's text format reads tsvector and tsquery
// columns by their input functions (a backslash in the data is COPY's
// escape first), as PostgreSQL does.
func TestCopyTextSearchTypes(t *testing.T) {
	cols := []Column{{Name: "v", Type: sqltypes.TypeTSVector}, {Name: "q", Type: sqltypes.TypeTSQuery}}
	for _, tc := range []struct{ data, v, q string }{
		{"'a':1A 'b c':2\t'a' & !'b'\n", "'a':1A 'b c':2", "'a' & !'b'"},
		{"b a b:3\tx <2> y:*\n", "'a' 'b':3", "'x' <2> 'y':*"},
		{"'it''s' x\\\\\\\\y\t'x'\n", `'it''s' 'x\\y'`, "'x'"},
		{"\t\n", "", ""},
		{"\\N\t\\N\n", "NULL", "NULL"},
	} {
		rows, err := decodeAll(textFormat2(cols), []byte(tc.data), []int{2})
		if err != nil || len(rows) != 1 {
			t.Errorf("%q: %v, %v", tc.data, rows, err)
			continue
		}
		show := func(v sqltypes.Value) string {
			if v.IsNull() {
				return "NULL"
			}
			return sqltypes.FormatText(v)
		}
		if v, q := show(rows[0][0]), show(rows[0][1]); v != tc.v || q != tc.q {
			t.Errorf("%q: %s | %s, want %s | %s", tc.data, v, q, tc.v, tc.q)
		}
	}
	if _, err := decodeAll(textFormat2(cols), []byte("a:0\tx\n"), []int{2}); err == nil {
		t.Error("a tsvector with position 0 was accepted")
	}
}

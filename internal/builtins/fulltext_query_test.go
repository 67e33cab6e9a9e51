package builtins

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestTSStat checks ts_stat's counting and order against PostgreSQL 15's
// answers for these tsvectors (psql, recorded here): occurrences by positions
// (one for a lexeme without any), weights filtering positions (a lexeme
// without positions then counting nowhere), lexemes descending.
func TestTSStat(t *testing.T) {
	docs := []string{"a:1A,2 b:3 c", "a:4B b d:1C", "e:5,6D f:7A"}
	var vs []*sqltypes.TSVectorValue
	for _, d := range docs {
		v, err := sqltypes.ParseTSVector(d)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	cases := []struct{ weights, want string }{
		{"", "f 1 1, e 1 2, d 1 1, c 1 1, b 2 2, a 2 3"},
		{"a", "f 1 1, a 1 1"},
		{"Bx", "a 1 1"},
		{"d", "e 1 2, b 1 1, a 1 1"},
		{"xyz", "f 1 1, e 1 2, d 1 1, c 1 1, b 2 2, a 2 3"},
		{"abcd", "f 1 1, e 1 2, d 1 1, b 1 1, a 2 3"},
	}
	for _, c := range cases {
		var got []string
		for _, r := range tsStat(vs, tsStatWeights(c.weights)) {
			got = append(got, fmt.Sprintf("%s %d %d", r[0].S, r[1].I, r[2].I))
		}
		if g := strings.Join(got, ", "); g != c.want {
			t.Errorf("weights %q: got %s, want %s", c.weights, g, c.want)
		}
	}
}

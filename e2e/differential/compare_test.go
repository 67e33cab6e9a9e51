package differential

import (
	"math/rand/v2"
	"testing"
)

func rows(vals ...[]string) [][]*string {
	var out [][]*string
	for _, r := range vals {
		var row []*string
		for _, v := range r {
			if v == "NULL" {
				row = append(row, nil)
				continue
			}
			v := v
			row = append(row, &v)
		}
		out = append(out, row)
	}
	return out
}

func TestCompareRows(t *testing.T) {
	num := []bool{false, true}
	for _, tc := range []struct {
		name   string
		pg, zp [][]*string
		order  []int
		equal  bool
	}{
		{"multiset, any order", rows([]string{"a", "1"}, []string{"b", "2"}), rows([]string{"b", "2"}, []string{"a", "1"}), nil, true},
		{"multiset counts duplicates", rows([]string{"a", "1"}, []string{"a", "1"}), rows([]string{"a", "1"}, []string{"b", "1"}), nil, false},
		{"NULL is not the empty string", rows([]string{"", "1"}), rows([]string{"NULL", "1"}), nil, false},
		{"floats within 1e-9", rows([]string{"a", "0.30000000000000004"}), rows([]string{"a", "0.3"}), nil, true},
		{"floats further apart", rows([]string{"a", "0.3001"}), rows([]string{"a", "0.3"}), nil, false},
		{"large floats are told apart", rows([]string{"a", "-3999999995"}, []string{"a", "-4000000001"}),
			rows([]string{"a", "-4000000001"}, []string{"a", "-3999999995"}), nil, true},
		{"-0 is 0", rows([]string{"a", "-0"}), rows([]string{"a", "0"}), nil, true},
		{"ordered: sequence", rows([]string{"a", "1"}, []string{"b", "2"}), rows([]string{"b", "2"}, []string{"a", "1"}), []int{0, 1}, false},
		{"ordered: ties may come in any order", rows([]string{"a", "1"}, []string{"a", "2"}, []string{"b", "0"}),
			rows([]string{"a", "2"}, []string{"a", "1"}, []string{"b", "0"}), []int{0}, true},
		{"ordered: a tie broken across runs", rows([]string{"a", "1"}, []string{"b", "2"}, []string{"b", "3"}),
			rows([]string{"b", "2"}, []string{"a", "1"}, []string{"b", "3"}), []int{0}, false},
		{"row counts", rows([]string{"a", "1"}), rows(), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := compareRows(tc.pg, tc.zp, num, orderSpec{keys: tc.order})
			if (d == "") != tc.equal {
				t.Errorf("compareRows = %q, want equal=%v", d, tc.equal)
			}
		})
	}
}

func TestCompareResultsErrors(t *testing.T) {
	fail := func(code string) result { return result{err: errString(code), code: code} }
	ok := result{cols: []string{"a"}, oids: []uint32{23}}
	for _, tc := range []struct {
		name   string
		pg, zp result
		kind   string
	}{
		{"same SQLSTATE", fail("42P01"), fail("42P01"), ""},
		{"same class", fail("42P01"), fail("42703"), iCode},
		{"other class", fail("42P01"), fail("0A000"), mSQLState},
		{"data errors in another order", fail("23505"), fail("22003"), iErrorOrder},
		{"only zproxy fails", ok, fail("XX000"), mError},
		{"only PostgreSQL fails", fail("42804"), ok, mError},
		{"PostgreSQL lacks the feature", fail("0A000"), ok, iPGLimited},
		{"names", ok, result{cols: []string{"b"}, oids: []uint32{23}}, mNames},
		{"types", ok, result{cols: []string{"a"}, oids: []uint32{20}}, mTypes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := compareResults(tc.pg, tc.zp, orderSpec{})
			got := ""
			if len(ms) > 0 {
				got = ms[0].kind
			}
			if got != tc.kind {
				t.Errorf("kind %q, want %q (%v)", got, tc.kind, ms)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestGeneratorDeterministic: one seed, one sequence of statements, which
// is what lets a seed replay a campaign.
func TestGeneratorDeterministic(t *testing.T) {
	draw := func() []string {
		rng := rand.New(rand.NewPCG(7, 7))
		sch := genSchema(rng, rand.New(rand.NewPCG(7, 8)), 8)
		g := &gen{rng: rng, sch: sch}
		next := 0
		var out []string
		for i := 0; i < 200; i++ {
			g.reset()
			var st *stmt
			switch i % 3 {
			case 0:
				st = &stmt{kind: kQuery, q: g.query(nil, 2, shape{top: true})}
			case 1:
				st = g.write(2, 8)
			default:
				st = g.viewDDL(2, &next)
			}
			out = append(out, st.sql())
		}
		return out
	}
	a, b := draw(), draw()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("statement %d differs:\n%s\n%s", i, a[i], b[i])
		}
	}
}

// TestMutatorRestores: every mutation's undo gives back the statement it
// started from.
func TestMutatorRestores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	g := &gen{rng: rng, sch: genSchema(rng, rand.New(rand.NewPCG(7, 8)), 8)}
	for n := 0; n < 30; n++ {
		g.reset()
		st := &stmt{kind: kQuery, q: g.query(nil, 2, shape{top: true})}
		if n%2 == 1 {
			st = g.write(2, 8)
		}
		orig := st.sql()
		for i := 0; ; i++ {
			undo := mutate(st, i)
			if undo == nil {
				break
			}
			undo()
			if got := st.sql(); got != orig {
				t.Fatalf("mutation %d not undone:\n%s\n%s", i, orig, got)
			}
		}
	}
}

package tsearch

import (
	"context"
	"math/rand"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// randomQuery is tsquery text of a random tree over a few words, with
// weights, prefixes, negations and phrases now and then.
func randomQuery(r *rand.Rand, depth int) string {
	words := []string{"a", "b", "c", "d", "cat", "dog", "sun", "x1"}
	if depth == 0 || r.Intn(3) == 0 {
		w := words[r.Intn(len(words))]
		switch r.Intn(6) {
		case 0:
			w += ":*"
		case 1:
			w += ":A"
		}
		if r.Intn(7) == 0 {
			return "!" + w
		}
		return w
	}
	ops := []string{" & ", " | ", " <-> ", " & ", " | ", " <2> "}
	return "(" + randomQuery(r, depth-1) + ops[r.Intn(len(ops))] + randomQuery(r, depth-1) + ")"
}

// TestRewriteMatchesPostgres compares ts_rewrite on random queries, targets
// and substitutes (targets often a subtree of the query) with PostgreSQL
// 15's. It needs TSEARCH_POSTGRES.
func TestRewriteMatchesPostgres(t *testing.T) {
	ctx := context.Background()
	conn := postgres(t)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		q := randomQuery(r, 4)
		target := randomQuery(r, 1+r.Intn(2))
		if r.Intn(2) == 0 {
			target = randomQuery(rand.New(rand.NewSource(int64(i))), 2)
		}
		subst := ""
		if r.Intn(4) != 0 {
			subst = randomQuery(r, 2)
		}
		var want string
		if err := conn.QueryRow(ctx, "SELECT ts_rewrite($1::tsquery, $2::tsquery, $3::tsquery)::text", q, target, subst).Scan(&want); err != nil {
			t.Fatal(err)
		}
		parse := func(s string) *sqltypes.TSQueryValue {
			v, err := sqltypes.ParseTSQueryText(s)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			return v
		}
		got := sqltypes.TSQueryString(Rewrite(parse(q), parse(target), parse(subst)))
		if got != want {
			t.Errorf("ts_rewrite(%q, %q, %q):\n got %s\nwant %s", q, target, subst, got, want)
		}
	}
}

// TestRewriteAllMatchesPostgres compares ts_rewrite(query, sql) with
// several (target, substitute) rows, targets often words of the query and
// of earlier substitutes, with PostgreSQL 15's. It needs TSEARCH_POSTGRES.
func TestRewriteAllMatchesPostgres(t *testing.T) {
	ctx := context.Background()
	conn := postgres(t)
	r := rand.New(rand.NewSource(2))
	parse := func(s string) *sqltypes.TSQueryValue {
		v, err := sqltypes.ParseTSQueryText(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	for i := 0; i < 500; i++ {
		q := randomQuery(r, 3)
		n := 1 + r.Intn(4)
		targets, substs := make([]string, n), make([]string, n)
		pairs := make([]RewritePair, n)
		for k := range n {
			targets[k] = randomQuery(r, r.Intn(2))
			if r.Intn(5) != 0 {
				substs[k] = randomQuery(r, r.Intn(3))
			}
			pairs[k] = RewritePair{Target: parse(targets[k]), Substitute: parse(substs[k])}
		}
		var want string
		err := conn.QueryRow(ctx, `SELECT ts_rewrite($1::tsquery, format('SELECT t::tsquery, s::tsquery FROM unnest(%L::text[], %L::text[]) WITH ORDINALITY AS p(t, s, n) ORDER BY n', $2::text[], $3::text[]))::text`,
			q, targets, substs).Scan(&want)
		if err != nil {
			t.Fatal(err)
		}
		got := sqltypes.TSQueryString(RewriteAll(parse(q), pairs))
		if got != want {
			t.Errorf("ts_rewrite(%q, pairs %q → %q):\n got %s\nwant %s", q, targets, substs, got, want)
		}
	}
}

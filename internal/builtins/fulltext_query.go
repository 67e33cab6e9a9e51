package builtins

import (
	"slices"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/tsearch"
)

// QueryRunner runs a query given as text (ts_stat's, ts_rewrite's) in the
// calling statement's session and transaction, with the privileges of the
// current user, as PostgreSQL's SPI cursor does: it must be one statement,
// a query (a write is refused as in a read-only cursor). columns sees the
// result's types before any row; row sees each row, which it may keep
// only until it returns. The Routines of a statement's Context implement
// it where SQL can be run (package session).
type QueryRunner interface {
	RunQuery(ctx *Context, sql string, columns func(types []sqltypes.Type) error, row func(row []sqltypes.Value) error) error
}

// runQuery runs sql through ctx's QueryRunner; fn names the caller in
// the error where there is none (a context that cannot run SQL).
func runQuery(ctx *Context, fn, sql string, columns func(types []sqltypes.Type) error, row func(row []sqltypes.Value) error) error {
	var qr QueryRunner
	if ctx != nil {
		qr, _ = ctx.Routines.(QueryRunner)
	}
	if qr == nil {
		return pgerr.New(pgerr.FeatureNotSupported, "%s cannot run its query here", fn)
	}
	return qr.RunQuery(ctx, sql, columns, row)
}

// tsStatWeights is ts_stat's weights mask: bit 3 for A, 2 for B, 1 for C,
// 0 for D (a position counts when its weight's bit is set); other
// characters are ignored, as PostgreSQL ignores them.
func tsStatWeights(ws string) int {
	mask := 0
	for _, r := range ws {
		switch r {
		case 'A', 'a':
			mask |= 1 << 3
		case 'B', 'b':
			mask |= 1 << 2
		case 'C', 'c':
			mask |= 1 << 1
		case 'D', 'd':
			mask |= 1
		}
	}
	return mask
}

// tsStats are ts_stat's counts: for each lexeme, the documents holding
// it and its occurrences.
type tsStats struct {
	mask  int // tsStatWeights' mask
	stats map[string]*[2]int64
}

// add counts one document's lexemes: each occurrence (one for a lexeme
// without positions), or when mask is not 0 each position of a weight in
// mask (a lexeme without positions then counts nowhere).
func (t *tsStats) add(d *sqltypes.TSVectorValue) {
	for _, l := range d.Lexemes {
		n := 0
		if t.mask == 0 {
			n = max(len(l.Pos), 1)
		} else {
			for _, p := range l.Pos {
				if t.mask&(1<<p.Weight()) != 0 {
					n++
				}
			}
		}
		if n == 0 {
			continue
		}
		s := t.stats[l.Word]
		if s == nil {
			s = new([2]int64)
			t.stats[l.Word] = s
		}
		s[0]++
		s[1] += int64(n)
	}
}

// rows are ts_stat's rows in PostgreSQL's order, the lexemes' bytes
// descending (its walk of the statistics tree).
func (t *tsStats) rows() [][]sqltypes.Value {
	words := make([]string, 0, len(t.stats))
	for w := range t.stats {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int { return strings.Compare(b, a) })
	rows := make([][]sqltypes.Value, len(words))
	for i, w := range words {
		s := t.stats[w]
		rows[i] = []sqltypes.Value{sqltypes.NewText(w), sqltypes.NewInt(s[0]), sqltypes.NewInt(s[1])}
	}
	return rows
}

// tsStat is ts_stat over docs with the weights mask.
func tsStat(docs []*sqltypes.TSVectorValue, mask int) [][]sqltypes.Value {
	t := &tsStats{mask: mask, stats: map[string]*[2]int64{}}
	for _, d := range docs {
		t.add(d)
	}
	return t.rows()
}

func init() {
	text := T(sqltypes.TypeText)
	record := sqltypes.Type{ID: sqltypes.Record}
	columns := []SetColumn{{Name: "word", Type: sqltypes.TypeText}, {Name: "ndoc", Type: sqltypes.TypeInt4}, {Name: "nentry", Type: sqltypes.TypeInt4}}
	stat := func(weighted bool) Overload {
		params := []Param{text}
		if weighted {
			params = append(params, text)
		}
		return Overload{Params: params, Result: Returns(record), Volatility: Volatile,
			Doc: "statistics of the lexemes of the tsvectors the query returns: documents holding each, and its occurrences",
			Set: &SetFunc{Columns: columns, Rows: func(ctx *Context, a []sqltypes.Value) (SetRows, error) {
				t := &tsStats{stats: map[string]*[2]int64{}}
				if weighted {
					t.mask = tsStatWeights(a[1].S)
				}
				err := runQuery(ctx, "ts_stat", a[0].S, func(types []sqltypes.Type) error {
					if len(types) != 1 || types[0].ID != sqltypes.TSVector {
						return pgerr.New(pgerr.InvalidParameterValue, "ts_stat query must return one tsvector column")
					}
					return nil
				}, func(r []sqltypes.Value) error {
					if !r[0].IsNull() {
						t.add(r[0].TSVector())
					}
					return nil
				})
				if err != nil {
					return nil, err
				}
				return Table(t.rows()), nil
			}}}
	}
	Register("ts_stat", stat(false), stat(true))
}

// tsRewriteQuery is ts_rewrite(query, sql): the query rewritten by the
// (target, substitute) rows sql returns, in their order. An empty query
// is returned as it is, its sql not run, as PostgreSQL does.
func tsRewriteQuery(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	q := a[0].TSQuery()
	if q.Root == nil {
		return a[0], nil
	}
	var pairs []tsearch.RewritePair
	err := runQuery(ctx, "ts_rewrite", a[1].S, func(types []sqltypes.Type) error {
		// Exactly tsquery: PostgreSQL compares the columns' type OIDs, so
		// a domain over tsquery is refused (ts_stat takes one over
		// tsvector).
		if len(types) != 2 || types[0].ID != sqltypes.TSQuery || types[1].ID != sqltypes.TSQuery || types[0].IsDomain() || types[1].IsDomain() {
			return pgerr.New(pgerr.InvalidParameterValue, "ts_rewrite query must return two tsquery columns")
		}
		return nil
	}, func(r []sqltypes.Value) error {
		if !r[0].IsNull() && !r[1].IsNull() {
			pairs = append(pairs, tsearch.RewritePair{Target: r[0].TSQuery(), Substitute: r[1].TSQuery()})
		}
		return nil
	})
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewTSQuery(tsearch.RewriteAll(q, pairs)), nil
}

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
// a query (a write is refused as in a read-only cursor). The Routines of a
// statement's Context implement it where SQL can be run (package session).
type QueryRunner interface {
	RunQuery(ctx *Context, sql string) (types []sqltypes.Type, rows [][]sqltypes.Value, err error)
}

// runQuery runs sql through ctx's QueryRunner; fn names the caller in
// the error where there is none (a context that cannot run SQL).
func runQuery(ctx *Context, fn, sql string) ([]sqltypes.Type, [][]sqltypes.Value, error) {
	var qr QueryRunner
	if ctx != nil {
		qr, _ = ctx.Routines.(QueryRunner)
	}
	if qr == nil {
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "%s cannot run its query here", fn)
	}
	return qr.RunQuery(ctx, sql)
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

// tsStat is ts_stat over the documents: each lexeme with the number of
// documents holding it and its number of occurrences (positions of a
// weight in mask when mask is not 0, so a lexeme without positions then
// counts nowhere). The rows come in PostgreSQL's order, the lexemes'
// bytes descending (its walk of the statistics tree).
func tsStat(docs []*sqltypes.TSVectorValue, mask int) [][]sqltypes.Value {
	type stat struct{ ndoc, nentry int64 }
	stats := map[string]*stat{}
	for _, d := range docs {
		for _, l := range d.Lexemes {
			n := 0
			if mask == 0 {
				n = max(len(l.Pos), 1)
			} else {
				for _, p := range l.Pos {
					if mask&(1<<p.Weight()) != 0 {
						n++
					}
				}
			}
			if n == 0 {
				continue
			}
			s := stats[l.Word]
			if s == nil {
				s = &stat{}
				stats[l.Word] = s
			}
			s.ndoc++
			s.nentry += int64(n)
		}
	}
	words := make([]string, 0, len(stats))
	for w := range stats {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int { return strings.Compare(b, a) })
	rows := make([][]sqltypes.Value, len(words))
	for i, w := range words {
		s := stats[w]
		rows[i] = []sqltypes.Value{sqltypes.NewText(w), sqltypes.NewInt(s.ndoc), sqltypes.NewInt(s.nentry)}
	}
	return rows
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
				types, rows, err := runQuery(ctx, "ts_stat", a[0].S)
				if err != nil {
					return nil, err
				}
				if len(types) != 1 || types[0].ID != sqltypes.TSVector {
					return nil, pgerr.New(pgerr.InvalidParameterValue, "ts_stat query must return one tsvector column")
				}
				docs := make([]*sqltypes.TSVectorValue, 0, len(rows))
				for _, r := range rows {
					if !r[0].IsNull() {
						docs = append(docs, r[0].TSVector())
					}
				}
				mask := 0
				if weighted {
					mask = tsStatWeights(a[1].S)
				}
				return Table(tsStat(docs, mask)), nil
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
	types, rows, err := runQuery(ctx, "ts_rewrite", a[1].S)
	if err != nil {
		return sqltypes.Null, err
	}
	// Exactly tsquery: PostgreSQL compares the columns' type OIDs, so a
	// domain over tsquery is refused (ts_stat takes one over tsvector).
	if len(types) != 2 || types[0].ID != sqltypes.TSQuery || types[1].ID != sqltypes.TSQuery || types[0].IsDomain() || types[1].IsDomain() {
		return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "ts_rewrite query must return two tsquery columns")
	}
	pairs := make([]tsearch.RewritePair, 0, len(rows))
	for _, r := range rows {
		if r[0].IsNull() || r[1].IsNull() {
			continue
		}
		pairs = append(pairs, tsearch.RewritePair{Target: r[0].TSQuery(), Substitute: r[1].TSQuery()})
	}
	return sqltypes.NewTSQuery(tsearch.RewriteAll(q, pairs)), nil
}

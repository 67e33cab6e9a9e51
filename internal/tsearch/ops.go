package tsearch

import (
	"slices"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// WeightOf reads a weight letter (A-D, either case) as setweight and
// ts_filter take it: 3 for A ... 0 for D.
func WeightOf(c byte) (int, bool) {
	switch c {
	case 'A', 'a':
		return 3, true
	case 'B', 'b':
		return 2, true
	case 'C', 'c':
		return 1, true
	case 'D', 'd':
		return 0, true
	}
	return 0, false
}

// SetWeight is setweight: the positions of the lexemes (all, or those in
// only when it is not nil) given weight w.
func SetWeight(v *sqltypes.TSVectorValue, w int, only map[string]bool) *sqltypes.TSVectorValue {
	out := &sqltypes.TSVectorValue{Lexemes: make([]sqltypes.TSLexeme, len(v.Lexemes))}
	for i, l := range v.Lexemes {
		if only != nil && !only[l.Word] || len(l.Pos) == 0 {
			out.Lexemes[i] = l
			continue
		}
		pos := make([]sqltypes.TSPos, len(l.Pos))
		for j, p := range l.Pos {
			pos[j] = sqltypes.MakeTSPos(p.Pos(), w)
		}
		out.Lexemes[i] = sqltypes.TSLexeme{Word: l.Word, Pos: pos}
	}
	return out
}

// Strip is strip: the lexemes without their positions.
func Strip(v *sqltypes.TSVectorValue) *sqltypes.TSVectorValue {
	out := &sqltypes.TSVectorValue{Lexemes: make([]sqltypes.TSLexeme, len(v.Lexemes))}
	for i, l := range v.Lexemes {
		out.Lexemes[i] = sqltypes.TSLexeme{Word: l.Word}
	}
	return out
}

// Concat is tsvector || tsvector: the right's positions shifted past the
// left's last one, lexemes of both merged.
func Concat(a, b *sqltypes.TSVectorValue) *sqltypes.TSVectorValue {
	maxpos := 0
	for _, l := range a.Lexemes {
		for _, p := range l.Pos {
			maxpos = max(maxpos, p.Pos())
		}
	}
	lex := make([]sqltypes.TSLexeme, 0, len(a.Lexemes)+len(b.Lexemes))
	i, j := 0, 0
	shift := func(l sqltypes.TSLexeme, into []sqltypes.TSPos) []sqltypes.TSPos {
		for _, p := range l.Pos {
			if len(into) >= sqltypes.TSMaxNumPos || len(into) > 0 && into[len(into)-1].Pos() == sqltypes.TSMaxEntryPos-1 {
				break
			}
			into = append(into, sqltypes.MakeTSPos(p.Pos()+maxpos, p.Weight()))
		}
		return into
	}
	for i < len(a.Lexemes) || j < len(b.Lexemes) {
		switch {
		case j >= len(b.Lexemes) || i < len(a.Lexemes) && a.Lexemes[i].Word < b.Lexemes[j].Word:
			lex = append(lex, a.Lexemes[i])
			i++
		case i >= len(a.Lexemes) || b.Lexemes[j].Word < a.Lexemes[i].Word:
			lex = append(lex, sqltypes.TSLexeme{Word: b.Lexemes[j].Word, Pos: shift(b.Lexemes[j], nil)})
			j++
		default:
			pos := slices.Clone(a.Lexemes[i].Pos)
			lex = append(lex, sqltypes.TSLexeme{Word: a.Lexemes[i].Word, Pos: shift(b.Lexemes[j], pos)})
			i++
			j++
		}
	}
	return &sqltypes.TSVectorValue{Lexemes: lex}
}

// Delete is ts_delete: the tsvector without the given lexemes.
func Delete(v *sqltypes.TSVectorValue, words map[string]bool) *sqltypes.TSVectorValue {
	out := &sqltypes.TSVectorValue{}
	for _, l := range v.Lexemes {
		if !words[l.Word] {
			out.Lexemes = append(out.Lexemes, l)
		}
	}
	return out
}

// Filter is ts_filter: only the positions of the given weights, lexemes
// left with none dropped.
func Filter(v *sqltypes.TSVectorValue, weights [4]bool) *sqltypes.TSVectorValue {
	out := &sqltypes.TSVectorValue{}
	for _, l := range v.Lexemes {
		var pos []sqltypes.TSPos
		for _, p := range l.Pos {
			if weights[p.Weight()] {
				pos = append(pos, p)
			}
		}
		if len(pos) > 0 {
			out.Lexemes = append(out.Lexemes, sqltypes.TSLexeme{Word: l.Word, Pos: pos})
		}
	}
	return out
}

// FromWords is array_to_tsvector: the words as lexemes without positions.
func FromWords(words []string) (*sqltypes.TSVectorValue, error) {
	lex := make([]sqltypes.TSLexeme, len(words))
	for i, w := range words {
		if w == "" {
			return nil, pgerr.New(pgerr.ZeroLengthCharacterString, "lexeme array may not contain empty strings")
		}
		lex[i] = sqltypes.TSLexeme{Word: w}
	}
	return sqltypes.MakeTSVector(lex), nil
}

// NumNode is numnode: the query's node count.
func NumNode(q *sqltypes.TSQueryValue) int { return len(q.Polish()) }

// Join is tsquery && tsquery, || and tsquery_phrase: the two queries under
// op; an empty one gives the other.
func Join(a, b *sqltypes.TSQueryValue, op sqltypes.TSQueryOp, distance int) *sqltypes.TSQueryValue {
	if a.Root == nil {
		return b
	}
	if b.Root == nil {
		return a
	}
	return &sqltypes.TSQueryValue{Root: &sqltypes.TSQueryNode{Op: op, Distance: distance, Left: a.Root, Right: b.Root}}
}

// Not is !! tsquery.
func Not(a *sqltypes.TSQueryValue) *sqltypes.TSQueryValue {
	if a.Root == nil {
		return a
	}
	return &sqltypes.TSQueryValue{Root: &sqltypes.TSQueryNode{Op: sqltypes.TSNot, Right: a.Root}}
}

// cleanNot is clean_NOT_intree: the query without its negations, as an
// index can answer it.
func cleanNot(n *sqltypes.TSQueryNode) *sqltypes.TSQueryNode {
	switch n.Op {
	case sqltypes.TSVal:
		return n
	case sqltypes.TSNot:
		return nil
	case sqltypes.TSOr:
		l := cleanNot(n.Left)
		if l == nil {
			return nil
		}
		r := cleanNot(n.Right)
		if r == nil {
			return nil
		}
		c := *n
		c.Left, c.Right = l, r
		return &c
	}
	l, r := cleanNot(n.Left), cleanNot(n.Right)
	switch {
	case l == nil:
		return r
	case r == nil:
		return l
	}
	c := *n
	c.Left, c.Right = l, r
	return &c
}

// QueryTree is querytree: the indexable part of the query, "T" when none.
func QueryTree(q *sqltypes.TSQueryValue) string {
	if q.Root == nil {
		return ""
	}
	n := cleanNot(q.Root)
	if n == nil {
		return "T"
	}
	return sqltypes.TSQueryString(&sqltypes.TSQueryValue{Root: n})
}

// Contains is tsquery @> tsquery (tsq_mcontains): a has at least b's
// nodes and every word of b.
func Contains(a, b *sqltypes.TSQueryValue) bool {
	na, nb := a.Polish(), b.Polish()
	if len(na) < len(nb) {
		return false
	}
	words := map[string]bool{}
	for _, n := range na {
		if n.Op == sqltypes.TSVal {
			words[n.Word] = true
		}
	}
	for _, n := range nb {
		if n.Op == sqltypes.TSVal && !words[n.Word] {
			return false
		}
	}
	return true
}

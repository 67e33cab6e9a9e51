package tsearch

import (
	"slices"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ternary is TSTernaryValue: a match, no match, or a match that position
// information (missing in a stripped tsvector) cannot confirm.
type ternary uint8

const (
	tsNo ternary = iota
	tsYes
	tsMaybe
)

// phraseData is ExecPhraseData: the positions where a phrase operand
// matches (the match's last word), its width, and whether it stands for
// every position but these (a negation).
type phraseData struct {
	pos    []int
	width  int
	negate bool
}

// Match is tsvector @@ tsquery (ts_match_vq): whether the document
// satisfies the query. A phrase needs the positions a stripped tsvector
// lacks, so it does not match one.
func Match(v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue) bool {
	// An empty query matches nothing; an empty document matches a query
	// that is true of every document without a word ('' @@ '!cat'), as
	// in ts_match_vq.
	if q == nil || q.Root == nil {
		return false
	}
	if v == nil {
		v = &sqltypes.TSVectorValue{}
	}
	check := func(n *sqltypes.TSQueryNode, data *phraseData) ternary { return checkOperand(v, n, data) }
	return execute(check, q.Root) != tsNo
}

// checkFunc is TS_execute's chkcond: whether an operand matches, and
// with data its positions.
type checkFunc func(n *sqltypes.TSQueryNode, data *phraseData) ternary

// lexemeRange is the lexemes an operand matches: the one equal to it, or
// for a prefix operand all that start with it.
func lexemeRange(v *sqltypes.TSVectorValue, n *sqltypes.TSQueryNode) []sqltypes.TSLexeme {
	i, _ := slices.BinarySearchFunc(v.Lexemes, n.Word, func(l sqltypes.TSLexeme, w string) int { return strings.Compare(l.Word, w) })
	j := i
	for j < len(v.Lexemes) && (v.Lexemes[j].Word == n.Word || n.Prefix && strings.HasPrefix(v.Lexemes[j].Word, n.Word)) {
		j++
	}
	return v.Lexemes[i:j]
}

func weightOK(n *sqltypes.TSQueryNode, p sqltypes.TSPos) bool {
	return n.Weight == 0 || n.Weight&(1<<p.Weight()) != 0
}

// checkOperand is checkcondition_str: whether the operand matches, and
// with data its positions (weight-filtered).
func checkOperand(v *sqltypes.TSVectorValue, n *sqltypes.TSQueryNode, data *phraseData) ternary {
	res := tsNo
	for _, l := range lexemeRange(v, n) {
		if len(l.Pos) == 0 {
			// No positions: a stripped lexeme matches whatever the weight
			// asked, but a phrase cannot place it.
			if data != nil {
				if res == tsNo {
					res = tsMaybe
				}
				continue
			}
			return tsYes
		}
		found := false
		for _, p := range l.Pos {
			if weightOK(n, p) {
				found = true
				if data == nil {
					break
				}
				data.pos = append(data.pos, p.Pos())
			}
		}
		if found {
			res = tsYes
			if data == nil {
				return tsYes
			}
		}
	}
	if data != nil && res == tsYes {
		slices.Sort(data.pos)
		data.pos = slices.Compact(data.pos)
	}
	return res
}

// execute is TS_execute_recurse.
func execute(check checkFunc, n *sqltypes.TSQueryNode) ternary {
	switch n.Op {
	case sqltypes.TSVal:
		return check(n, nil)
	case sqltypes.TSNot:
		switch execute(check, n.Right) {
		case tsNo:
			return tsYes
		case tsYes:
			return tsNo
		}
		return tsMaybe
	case sqltypes.TSAnd:
		l := execute(check, n.Left)
		if l == tsNo {
			return tsNo
		}
		r := execute(check, n.Right)
		if r == tsNo {
			return tsNo
		}
		if l == tsYes && r == tsYes {
			return tsYes
		}
		return tsMaybe
	case sqltypes.TSOr:
		l := execute(check, n.Left)
		if l == tsYes {
			return tsYes
		}
		r := execute(check, n.Right)
		if r == tsYes {
			return tsYes
		}
		if l == tsNo && r == tsNo {
			return tsNo
		}
		return tsMaybe
	case sqltypes.TSPhrase:
		if phraseExecute(check, n, nil) == tsYes {
			return tsYes
		}
		return tsNo
	}
	return tsNo
}

// The parts of TS_phrase_output's merge to emit.
const (
	emitBoth = 1 << iota
	emitLOnly
	emitROnly
)

// phraseOutput is TS_phrase_output: the merge of two position lists,
// shifted by their offsets, keeping what emit asks.
func phraseOutput(data, l, r *phraseData, emit, loff, roff int) ternary {
	li, ri := 0, 0
	var out []int
	for li < len(l.pos) || ri < len(r.pos) {
		lp, rp := 1<<62, 1<<62
		if li < len(l.pos) {
			lp = l.pos[li] + loff
		} else if emit&emitROnly == 0 {
			break
		}
		if ri < len(r.pos) {
			rp = r.pos[ri] + roff
		} else if emit&emitLOnly == 0 {
			break
		}
		switch {
		case lp < rp:
			if emit&emitLOnly != 0 {
				out = append(out, lp)
			}
			li++
		case lp == rp:
			if emit&emitBoth != 0 {
				out = append(out, rp)
			}
			li++
			ri++
		default:
			if emit&emitROnly != 0 {
				out = append(out, rp)
			}
			ri++
		}
		if data == nil && len(out) > 0 {
			return tsYes
		}
	}
	if data != nil {
		data.pos = out
	}
	if len(out) > 0 {
		return tsYes
	}
	return tsNo
}

// phraseExecute is TS_phrase_execute: the match of a phrase subtree with
// its positions.
func phraseExecute(check checkFunc, n *sqltypes.TSQueryNode, data *phraseData) ternary {
	if n.Op == sqltypes.TSVal {
		d := data
		if d == nil {
			d = &phraseData{}
		}
		return check(n, d)
	}
	switch n.Op {
	case sqltypes.TSNot:
		var d phraseData
		switch phraseExecute(check, n.Right, &d) {
		case tsNo:
			if data != nil {
				*data = phraseData{negate: true}
			}
			return tsYes
		case tsYes:
			if len(d.pos) > 0 {
				d.negate = !d.negate
				if data != nil {
					*data = d
				}
				return tsYes
			}
			if d.negate {
				if data != nil {
					*data = phraseData{}
				}
				return tsNo
			}
			return tsNo
		}
		return tsMaybe
	case sqltypes.TSPhrase, sqltypes.TSAnd:
		var l, r phraseData
		lm := phraseExecute(check, n.Left, &l)
		if lm == tsNo {
			return tsNo
		}
		rm := phraseExecute(check, n.Right, &r)
		if rm == tsNo {
			return tsNo
		}
		if lm == tsMaybe || rm == tsMaybe {
			return tsMaybe
		}
		var loff, roff, width int
		if n.Op == sqltypes.TSPhrase {
			loff, roff = n.Distance+r.width, 0
			width = n.Distance + l.width + r.width
		} else {
			width = max(l.width, r.width)
			loff, roff = width-l.width, width-r.width
		}
		if data != nil {
			data.width = width
		}
		switch {
		case l.negate && r.negate:
			phraseOutput(data, &l, &r, emitBoth|emitLOnly|emitROnly, loff, roff)
			if data != nil {
				data.negate = true
			}
			return tsYes
		case l.negate:
			return phraseOutput(data, &l, &r, emitROnly, loff, roff)
		case r.negate:
			return phraseOutput(data, &l, &r, emitLOnly, loff, roff)
		}
		return phraseOutput(data, &l, &r, emitBoth, loff, roff)
	case sqltypes.TSOr:
		var l, r phraseData
		lm := phraseExecute(check, n.Left, &l)
		rm := phraseExecute(check, n.Right, &r)
		if lm == tsNo && rm == tsNo {
			return tsNo
		}
		if lm == tsMaybe || rm == tsMaybe {
			return tsMaybe
		}
		if lm == tsNo {
			l.width = 0
		}
		if rm == tsNo {
			r.width = 0
		}
		width := max(l.width, r.width)
		loff, roff := width-l.width, width-r.width
		if data == nil {
			data = &phraseData{}
		}
		data.width = width
		switch {
		case l.negate && r.negate:
			phraseOutput(data, &l, &r, emitBoth, loff, roff)
			data.negate = true
			return tsYes
		case l.negate:
			phraseOutput(data, &l, &r, emitLOnly, loff, roff)
			data.negate = true
			return tsYes
		case r.negate:
			phraseOutput(data, &l, &r, emitROnly, loff, roff)
			data.negate = true
			return tsYes
		}
		return phraseOutput(data, &l, &r, emitBoth|emitLOnly|emitROnly, loff, roff)
	}
	return tsNo
}

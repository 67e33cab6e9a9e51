package tsearch

import (
	"math"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// docEntry is DocRepresentation: one position of the document where
// query operands match, with the operands matching there.
type docEntry struct {
	pos   sqltypes.TSPos
	entry int // the tsvector lexeme's index
	items []*sqltypes.TSQueryNode
}

// docRep is get_docrep: the positions of the lexemes the query's operands
// match (weight-filtered; stripped lexemes are ignored), in position
// order, operands matching one lexeme at one position joined.
func docRep(v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue) []docEntry {
	var raw []docEntry
	for _, n := range q.Polish() {
		if n.Op != sqltypes.TSVal {
			continue
		}
		first, _ := slices.BinarySearchFunc(v.Lexemes, n.Word, func(l sqltypes.TSLexeme, w string) int {
			return strings.Compare(l.Word, w)
		})
		for i, l := range lexemeRange(v, n) {
			for _, p := range l.Pos {
				if weightOK(n, p) {
					raw = append(raw, docEntry{pos: p, entry: first + i, items: []*sqltypes.TSQueryNode{n}})
				}
			}
		}
	}
	if len(raw) == 0 {
		return nil
	}
	slices.SortStableFunc(raw, func(a, b docEntry) int {
		switch {
		case a.pos.Pos() != b.pos.Pos():
			return a.pos.Pos() - b.pos.Pos()
		case a.pos.Weight() != b.pos.Weight():
			return a.pos.Weight() - b.pos.Weight()
		}
		return a.entry - b.entry
	})
	out := []docEntry{raw[0]}
	for _, d := range raw[1:] {
		last := &out[len(out)-1]
		if d.pos == last.pos && d.entry == last.entry {
			last.items = append(last.items, d.items...)
			continue
		}
		out = append(out, d)
	}
	return out
}

// coverState is the operands' positions seen while a cover is sought
// (QueryRepresentationOperand).
type coverState map[*sqltypes.TSQueryNode][]int

func (c coverState) fill(d docEntry, reverse bool) {
	for _, it := range d.items {
		pos := c[it]
		if len(pos) == 0 {
			c[it] = []int{d.pos.Pos()}
			continue
		}
		if reverse {
			if pos[0] != d.pos.Pos() {
				c[it] = append([]int{d.pos.Pos()}, pos...)
			}
		} else if pos[len(pos)-1] != d.pos.Pos() {
			c[it] = append(pos, d.pos.Pos())
		}
	}
}

func (c coverState) check(n *sqltypes.TSQueryNode, data *phraseData) ternary {
	pos, ok := c[n]
	if !ok {
		return tsNo
	}
	if data != nil {
		data.pos = slices.Clone(pos)
	}
	return tsYes
}

// cover is Cover: the next extent of the document (from ext.pos) that
// satisfies the query, narrowed from both ends.
type coverExt struct {
	pos, p, q  int
	begin, end int
}

func cover(doc []docEntry, root *sqltypes.TSQueryNode, ext *coverExt) bool {
	for {
		lastpos := ext.pos
		found := false
		st := coverState{}
		ext.p, ext.q = math.MaxInt, 0
		for i := ext.pos; i < len(doc); i++ {
			st.fill(doc[i], false)
			if execute(st.check, root) != tsNo {
				if doc[i].pos.Pos() > ext.q {
					ext.q = doc[i].pos.Pos()
					ext.end = i
					lastpos = i
					found = true
				}
				break
			}
		}
		if !found {
			return false
		}
		st = coverState{}
		i := lastpos
		for ; i >= ext.pos; i-- {
			st.fill(doc[i], true)
			if execute(st.check, root) != tsNo {
				if doc[i].pos.Pos() < ext.p {
					ext.begin = i
					ext.p = doc[i].pos.Pos()
				}
				break
			}
		}
		if ext.p <= ext.q {
			ext.pos = i + 1
			return true
		}
		ext.pos++
	}
}

// RankCD is ts_rank_cd (calc_rank_cd): the document's covers of the query,
// each weighing by its positions' weights and its noise words.
func RankCD(w [4]float32, v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue, method int) float32 {
	var invws [4]float64
	for i := range w {
		invws[i] = 1.0 / float64(w[i])
	}
	if q.Root == nil {
		return 0
	}
	doc := docRep(v, q)
	if doc == nil {
		return 0
	}
	var wdoc, sumDist, prevExtPos float64
	nExtent := 0
	ext := coverExt{}
	for cover(doc, q.Root, &ext) {
		invSum := 0.0
		for i := ext.begin; i <= ext.end; i++ {
			invSum += invws[doc[i].pos.Weight()]
		}
		cpos := float64(ext.end-ext.begin+1) / invSum
		nNoise := (ext.q - ext.p) - (ext.end - ext.begin)
		if nNoise < 0 {
			nNoise = (ext.end - ext.begin) / 2
		}
		wdoc += cpos / float64(1+nNoise)
		curExtPos := float64(ext.q+ext.p) / 2.0
		if nExtent > 0 && curExtPos > prevExtPos {
			sumDist += 1.0 / (curExtPos - prevExtPos)
		}
		prevExtPos = curExtPos
		nExtent++
	}
	if method&NormLogLength != 0 && len(v.Lexemes) > 0 {
		wdoc /= math.Log(float64(cntLength(v) + 1))
	}
	if method&NormLength != 0 {
		if n := cntLength(v); n > 0 {
			wdoc /= float64(n)
		}
	}
	if method&NormExtDist != 0 && nExtent > 0 && sumDist > 0 {
		wdoc /= float64(nExtent) / sumDist
	}
	if method&NormUniq != 0 && len(v.Lexemes) > 0 {
		wdoc /= float64(len(v.Lexemes))
	}
	if method&NormLogUniq != 0 && len(v.Lexemes) > 0 {
		wdoc /= math.Log(float64(len(v.Lexemes)+1)) / math.Log(2.0)
	}
	if method&NormRDivRPlus1 != 0 {
		wdoc /= wdoc + 1
	}
	return float32(wdoc)
}

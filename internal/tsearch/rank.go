package tsearch

import (
	"math"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// DefaultWeights are ts_rank's weights of D, C, B and A positions.
var DefaultWeights = [4]float32{0.1, 0.2, 0.4, 1.0}

// The normalization bits of ts_rank and ts_rank_cd.
const (
	NormLogLength  = 0x01
	NormLength     = 0x02
	NormExtDist    = 0x04
	NormUniq       = 0x08
	NormLogUniq    = 0x10
	NormRDivRPlus1 = 0x20
)

// uniqueOperands is SortAndUniqItems: the query's operands (under NOT
// too), sorted by their words, one per word.
func uniqueOperands(q *sqltypes.TSQueryValue) []*sqltypes.TSQueryNode {
	var out []*sqltypes.TSQueryNode
	for _, n := range q.Polish() {
		if n.Op == sqltypes.TSVal {
			out = append(out, n)
		}
	}
	slices.SortStableFunc(out, func(a, b *sqltypes.TSQueryNode) int { return strings.Compare(a.Word, b.Word) })
	return slices.CompactFunc(out, func(a, b *sqltypes.TSQueryNode) bool { return a.Word == b.Word })
}

// cntLength is cnt_length: the number of positions, a lexeme without
// any counting one.
func cntLength(v *sqltypes.TSVectorValue) int {
	n := 0
	for _, l := range v.Lexemes {
		n += max(len(l.Pos), 1)
	}
	return n
}

func wpos(w *[4]float32, p sqltypes.TSPos) float32 { return w[p.Weight()] }

// Rank is ts_rank (calc_rank).
func Rank(w [4]float32, v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue, method int) float32 {
	if len(v.Lexemes) == 0 || q.Root == nil {
		return 0
	}
	var res float32
	if q.Root.Op == sqltypes.TSAnd || q.Root.Op == sqltypes.TSPhrase {
		res = rankAnd(&w, v, q)
	} else {
		res = rankOr(&w, v, q)
	}
	if res < 0 {
		res = 1e-20
	}
	if method&NormLogLength != 0 {
		res = float32(float64(res) / (math.Log(float64(cntLength(v)+1)) / math.Log(2.0)))
	}
	if method&NormLength != 0 {
		if n := cntLength(v); n > 0 {
			res /= float32(n)
		}
	}
	if method&NormUniq != 0 {
		res /= float32(len(v.Lexemes))
	}
	if method&NormLogUniq != 0 {
		res = float32(float64(res) / (math.Log(float64(len(v.Lexemes)+1)) / math.Log(2.0)))
	}
	if method&NormRDivRPlus1 != 0 {
		res /= res + 1
	}
	return res
}

func rankOr(w *[4]float32, v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue) float32 {
	items := uniqueOperands(q)
	var res float32
	null := []sqltypes.TSPos{0}
	for _, it := range items {
		for _, l := range lexemeRange(v, it) {
			pos := l.Pos
			if len(pos) == 0 {
				pos = null
			}
			var resj float32
			wjm := float32(-1)
			jm := 0
			for j, p := range pos {
				resj += wpos(w, p) / float32((j+1)*(j+1))
				if wpos(w, p) > wjm {
					wjm, jm = wpos(w, p), j
				}
			}
			num := wjm + resj - wjm/float32((jm+1)*(jm+1))
			res = float32(float64(res) + float64(num)/1.64493406685)
		}
	}
	if len(items) > 0 {
		res /= float32(len(items))
	}
	return res
}

func wordDistance(d int) float32 {
	if d > 100 {
		return 1e-30
	}
	return float32(1.0 / (1.005 + 0.05*math.Exp(float64(float32(d))/1.5-2)))
}

func rankAnd(w *[4]float32, v *sqltypes.TSVectorValue, q *sqltypes.TSQueryValue) float32 {
	items := uniqueOperands(q)
	if len(items) < 2 {
		return rankOr(w, v, q)
	}
	null := []sqltypes.TSPos{sqltypes.MakeTSPos(sqltypes.TSMaxEntryPos-1, 0)}
	pos := make([][]sqltypes.TSPos, len(items))
	isNull := make([]bool, len(items))
	res := float32(-1)
	for i, it := range items {
		for _, l := range lexemeRange(v, it) {
			if len(l.Pos) > 0 {
				pos[i], isNull[i] = l.Pos, false
			} else {
				pos[i], isNull[i] = null, true
			}
			for k := 0; k < i; k++ {
				if pos[k] == nil {
					continue
				}
				for _, pl := range pos[i] {
					for _, pk := range pos[k] {
						dist := pl.Pos() - pk.Pos()
						if dist < 0 {
							dist = -dist
						}
						if dist != 0 || isNull[i] || isNull[k] {
							if dist == 0 {
								dist = sqltypes.TSMaxEntryPos
							}
							curw := float32(math.Sqrt(float64(wpos(w, pl) * wpos(w, pk) * wordDistance(dist))))
							if res < 0 {
								res = curw
							} else {
								res = float32(1.0 - (1.0-float64(res))*(1.0-float64(curw)))
							}
						}
					}
				}
			}
		}
	}
	return res
}

package builtins

import (
	"hash/crc32"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The functions and operators of the extension pg_trgm (version 1.6, as
// PostgreSQL 15 ships it), built in and always installed like the others
// (catalog/pgcatalog/extensions.go). They compute what contrib/pg_trgm
// computes for a UTF-8 database whose LC_CTYPE classifies and lower-cases
// characters by Unicode (glibc's C.UTF-8 and the language locales): the
// same trigrams, in the same order, the same real similarities. The
// gin_trgm_ops index's trigrams are in ext_trgm_index.go; there is no
// gist_trgm_ops.

// The thresholds of the operators, settings the session keeps
// (internal/guc's extension parameters); set_limit is in package
// catalog/pgcatalog because it changes a setting.
const (
	TrgmSimilarityThreshold           = "pg_trgm.similarity_threshold"
	TrgmWordSimilarityThreshold       = "pg_trgm.word_similarity_threshold"
	TrgmStrictWordSimilarityThreshold = "pg_trgm.strict_word_similarity_threshold"
)

// trgmDefaults are the thresholds' defaults, for a context without a
// session.
var trgmDefaults = map[string]float64{
	TrgmSimilarityThreshold:           0.3,
	TrgmWordSimilarityThreshold:       0.6,
	TrgmStrictWordSimilarityThreshold: 0.5,
}

// trgm is one trigram: three bytes of ASCII text, or, when the three
// characters take more bytes, three bytes of their CRC (pg_trgm's
// compact_trigram).
type trgm [3]byte

// cmpTrgm orders trigrams as pg_trgm's CMPTRGM does, byte by byte as C's
// (signed on the platforms PostgreSQL is built for) char: the hashed
// trigrams with a high first byte sort before the ASCII ones, and
// show_trgm lists them in that order.
func cmpTrgm(a, b trgm) int {
	for i := 0; i < 3; i++ {
		if x, y := signedChar(a[i]), signedChar(b[i]); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// signedChar is byte c read as C's signed char.
func signedChar(c byte) int {
	if c >= 0x80 {
		return int(c) - 0x100
	}
	return int(c)
}

// Word bounds of a trigram, for strict word similarity.
const (
	trgmBoundLeft  = 1
	trgmBoundRight = 2
)

// trgmWordChar is pg_trgm's ISWORDCHR: a letter or digit. An ASCII byte
// is one by C's isalpha/isdigit; another character by iswalpha, which
// glibc derives from Unicode's Alphabetic property and counts the
// non-ASCII decimal digits as letters.
func trgmWordChar(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) || unicode.Is(unicode.Nd, r)
}

// compactTrgm is compact_trigram: three one-byte characters are the
// trigram; anything longer is hashed with PostgreSQL's legacy CRC-32,
// whose low three bytes (in memory order on a little-endian machine)
// stand for it.
func compactTrgm(b []byte) trgm {
	if len(b) == 3 {
		return trgm{b[0], b[1], b[2]}
	}
	crc := legacyCRC32(b)
	return trgm{byte(crc), byte(crc >> 8), byte(crc >> 16)}
}

// legacyCRC32 is pg_crc.h's LEGACY_CRC32 (the WAL checksum before 9.5,
// which pg_trgm still hashes with): the reflected CRC-32 table driven by
// the unreflected shift, so not the standard CRC-32 of these bytes.
func legacyCRC32(b []byte) uint32 {
	crc := uint32(0xFFFFFFFF)
	for _, c := range b {
		crc = crc32.IEEETable[byte(crc>>24)^c] ^ crc<<8
	}
	return crc ^ 0xFFFFFFFF
}

// trgmWords appends the trigrams of each word of s to out, in order and
// with repeats (generate_trgm_only): each word is lower-cased, padded
// with two blanks before and one after, and every three consecutive
// characters of that are a trigram. With bounds, it also records which
// trigram starts and which ends a word.
func trgmWords(s string, bounds *[]uint8) []trgm {
	var out []trgm
	buf := make([]byte, 0, len(s)+4)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !trgmWordChar(r) {
			i += n
			continue
		}
		buf = append(buf[:0], ' ', ' ')
		for i < len(s) {
			r, n = utf8.DecodeRuneInString(s[i:])
			if !trgmWordChar(r) {
				break
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			i += n
		}
		buf = append(buf, ' ')
		start := len(out)
		out = appendWordTrgms(out, buf)
		if bounds != nil && len(out) > start {
			for len(*bounds) < len(out) {
				*bounds = append(*bounds, 0)
			}
			(*bounds)[start] |= trgmBoundLeft
			(*bounds)[len(out)-1] |= trgmBoundRight
		}
	}
	return out
}

// appendWordTrgms appends the trigrams of a padded word: every three
// consecutive characters of buf.
func appendWordTrgms(out []trgm, buf []byte) []trgm {
	for p := 0; ; {
		l1, _ := trgmCharLen(buf, p)
		l2, _ := trgmCharLen(buf, p+l1)
		l3, ok := trgmCharLen(buf, p+l1+l2)
		if !ok {
			return out
		}
		out = append(out, compactTrgm(buf[p:p+l1+l2+l3]))
		p += l1
	}
}

// trgmCharLen is the length of the UTF-8 character at p of b, and whether
// there is one.
func trgmCharLen(b []byte, p int) (int, bool) {
	if p >= len(b) {
		return 0, false
	}
	_, n := utf8.DecodeRune(b[p:])
	return n, true
}

// trgmSet is generate_trgm: the sorted distinct trigrams of s.
func trgmSet(s string) []trgm {
	t := trgmWords(s, nil)
	sort.Slice(t, func(i, j int) bool { return cmpTrgm(t[i], t[j]) < 0 })
	out := t[:0]
	for i, x := range t {
		if i == 0 || x != t[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// trgmSimilarity is similarity(): the trigrams both have over those either
// has (cnt_sml), in single precision as pg_trgm computes it.
func trgmSimilarity(a, b string) float32 {
	t1, t2 := trgmSet(a), trgmSet(b)
	if len(t1) == 0 || len(t2) == 0 {
		return 0
	}
	count := 0
	for i, j := 0, 0; i < len(t1) && j < len(t2); {
		switch c := cmpTrgm(t1[i], t2[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			i++
			j++
			count++
		}
	}
	return calcSml(count, len(t1), len(t2))
}

// calcSml is pg_trgm's CALCSML, in float4.
func calcSml(count, len1, len2 int) float32 {
	return float32(count) / float32(len1+len2-count)
}

// trgmWordSimilarity is calc_word_similarity: the greatest similarity
// between the trigrams of a and those of a run of consecutive trigrams of
// b (strict: a run of whole words of b).
func trgmWordSimilarity(a, b string, strict bool) float32 {
	var bounds []uint8
	var bp *[]uint8
	if strict {
		bp = &bounds
	}
	t1 := trgmWords(a, nil)
	t2 := trgmWords(b, bp)
	// Sort both lists' trigrams together, a's before b's among equal
	// ones and b's by position, to number the distinct trigrams and note
	// which of them a has.
	type posTrgm struct {
		t     trgm
		index int // -1 for a trigram of a, else its position in b
	}
	all := make([]posTrgm, 0, len(t1)+len(t2))
	for _, t := range t1 {
		all = append(all, posTrgm{t, -1})
	}
	for i, t := range t2 {
		all = append(all, posTrgm{t, i})
	}
	sort.Slice(all, func(i, j int) bool {
		if c := cmpTrgm(all[i].t, all[j].t); c != 0 {
			return c < 0
		}
		return all[i].index < all[j].index
	})
	trg2indexes := make([]int, len(t2))
	found := make([]bool, len(all)+1)
	ulen1, j := 0, 0
	for i := range all {
		if i > 0 && all[i-1].t != all[i].t {
			if found[j] {
				ulen1++
			}
			j++
		}
		if all[i].index >= 0 {
			trg2indexes[all[i].index] = j
		} else {
			found[j] = true
		}
	}
	if found[j] {
		ulen1++
	}
	return iterateWordSimilarity(trg2indexes, found, ulen1, len(t2), len(all), strict, bounds)
}

// iterateWordSimilarity is pg_trgm's iterate_word_similarity: it walks b's
// trigrams, keeping for each upper bound (a trigram a has, or for strict
// the end of a word) the lower bound that gives the greatest similarity.
func iterateWordSimilarity(trg2indexes []int, found []bool, ulen1, len2, n int, strict bool, bounds []uint8) float32 {
	ulen2, count, lower := 0, 0, -1
	if strict {
		lower = 0
	}
	var smlrMax float32
	lastpos := make([]int, n+1)
	for i := range lastpos {
		lastpos[i] = -1
	}
	for i := 0; i < len2; i++ {
		trgindex := trg2indexes[i]
		if lower >= 0 || found[trgindex] {
			if lastpos[trgindex] < 0 {
				ulen2++
				if found[trgindex] {
					count++
				}
			}
			lastpos[trgindex] = i
		}
		isUpper := found[trgindex]
		if strict {
			isUpper = bounds[i]&trgmBoundRight != 0
		}
		if !isUpper {
			continue
		}
		upper := i
		if lower == -1 {
			lower = i
			ulen2 = 1
		}
		smlrCur := calcSml(count, ulen1, ulen2)
		// Try moving the lower bound up for a greater similarity.
		tmpCount, tmpUlen2, prevLower := count, ulen2, lower
		for tmpLower := lower; tmpLower <= upper; tmpLower++ {
			if !strict || bounds[tmpLower]&trgmBoundLeft != 0 {
				if smlrTmp := calcSml(tmpCount, ulen1, tmpUlen2); smlrTmp > smlrCur {
					smlrCur = smlrTmp
					ulen2 = tmpUlen2
					lower = tmpLower
					count = tmpCount
				}
			}
			tmpTrgindex := trg2indexes[tmpLower]
			if lastpos[tmpTrgindex] == tmpLower {
				tmpUlen2--
				if found[tmpTrgindex] {
					tmpCount--
				}
			}
		}
		if smlrCur > smlrMax {
			smlrMax = smlrCur
		}
		for tmpLower := prevLower; tmpLower < lower; tmpLower++ {
			tmpTrgindex := trg2indexes[tmpLower]
			if lastpos[tmpTrgindex] == tmpLower {
				lastpos[tmpTrgindex] = -1
			}
		}
	}
	return smlrMax
}

// showTrgm is show_trgm's list: each trigram as its text, or, when it is
// not three ASCII letters, digits or blanks, as the hex of its bytes.
func showTrgm(s string) []string {
	set := trgmSet(s)
	out := make([]string, len(set))
	for i, t := range set {
		if trgmPrintable(t[0]) && trgmPrintable(t[1]) && trgmPrintable(t[2]) {
			out[i] = string(t[:])
		} else {
			out[i] = "0x" + hex6(uint32(t[0])<<16|uint32(t[1])<<8|uint32(t[2]))
		}
	}
	return out
}

// trgmPrintable is pg_trgm's ISPRINTABLECHAR.
func trgmPrintable(c byte) bool {
	return c == ' ' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func hex6(v uint32) string {
	h := strconv.FormatUint(uint64(v), 16)
	return strings.Repeat("0", 6-len(h)) + h
}

// TrgmThreshold is the session's value of one of pg_trgm's thresholds.
func TrgmThreshold(ctx *Context, name string) float64 {
	if ctx != nil && ctx.ExactSettings != nil {
		if v, ok := ctx.ExactSettings(name); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsNaN(f) {
				return f
			}
		}
	}
	return trgmDefaults[name]
}

func float4V(f float32) sqltypes.Value { return sqltypes.NewFloat(float64(f)) }

func init() {
	textT := T(sqltypes.TypeText)
	two := []Param{textT, textT}
	real := func(doc string, f func(a, b string) float32) Overload {
		return Overload{Params: two, Result: Returns(sqltypes.TypeFloat4), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return float4V(f(a[0].S, a[1].S)), nil }}
	}
	wordSml := func(a, b string) float32 { return trgmWordSimilarity(a, b, false) }
	strictSml := func(a, b string) float32 { return trgmWordSimilarity(a, b, true) }
	Register("show_trgm", Overload{Params: []Param{textT}, Result: Returns(sqltypes.ArrayOf(sqltypes.TypeText)), Volatility: Immutable,
		Doc: "the trigrams of a string (pg_trgm)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			words := showTrgm(a[0].S)
			elems := make([]sqltypes.Value, len(words))
			for i, w := range words {
				elems[i] = sqltypes.NewText(w)
			}
			return sqltypes.NewArray1(sqltypes.TypeText, elems), nil
		}})
	Register("similarity", real("the share of trigrams two strings have in common (pg_trgm)", trgmSimilarity))
	Register("word_similarity", real("the greatest similarity of the first string to a part of the second (pg_trgm)", wordSml))
	Register("strict_word_similarity", real("the greatest similarity of the first string to whole words of the second (pg_trgm)", strictSml))
	Register("show_limit", Overload{Result: Returns(sqltypes.TypeFloat4), Volatility: Stable,
		Doc: "pg_trgm.similarity_threshold (pg_trgm)",
		Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			return float4V(float32(TrgmThreshold(ctx, TrgmSimilarityThreshold))), nil
		}})

	// The operators, bound by their operands' types (% is also modulo),
	// and the functions pg_trgm implements them with, which it also
	// exports (similarity_op(a, b) is a % b). The boolean ones read the
	// session's thresholds, so they are stable, never folded at bind time.
	isSimilar := func(doc, threshold string, f func(a, b string) float32, commute bool) Overload {
		bin := func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			if commute {
				a, b = b, a
			}
			return sqltypes.NewBool(float64(f(a.S, b.S)) >= TrgmThreshold(ctx, threshold)), nil
		}
		return Overload{Params: two, Result: Returns(sqltypes.TypeBool), Volatility: Stable, Doc: doc, Binary: bin,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return bin(ctx, a[0], a[1]) }}
	}
	distance := func(doc string, f func(a, b string) float32, commute bool) Overload {
		bin := func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			if commute {
				a, b = b, a
			}
			return float4V(float32(1.0 - float64(f(a.S, b.S)))), nil
		}
		return Overload{Params: two, Result: Returns(sqltypes.TypeFloat4), Volatility: Immutable, Doc: doc, Binary: bin,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) { return bin(ctx, a[0], a[1]) }}
	}
	for _, o := range []struct {
		op, fn string
		ov     Overload
	}{
		{"%", "similarity_op", isSimilar("similarity reaches pg_trgm.similarity_threshold (pg_trgm's %)", TrgmSimilarityThreshold, trgmSimilarity, false)},
		{"<%", "word_similarity_op", isSimilar("word_similarity reaches pg_trgm.word_similarity_threshold (pg_trgm's <%)", TrgmWordSimilarityThreshold, wordSml, false)},
		{"%>", "word_similarity_commutator_op", isSimilar("word_similarity(b, a) reaches pg_trgm.word_similarity_threshold (pg_trgm's %>)", TrgmWordSimilarityThreshold, wordSml, true)},
		{"<<%", "strict_word_similarity_op", isSimilar("strict_word_similarity reaches pg_trgm.strict_word_similarity_threshold (pg_trgm's <<%)", TrgmStrictWordSimilarityThreshold, strictSml, false)},
		{"%>>", "strict_word_similarity_commutator_op", isSimilar("strict_word_similarity(b, a) reaches pg_trgm.strict_word_similarity_threshold (pg_trgm's %>>)", TrgmStrictWordSimilarityThreshold, strictSml, true)},
		{"<->", "similarity_dist", distance("1 - similarity (pg_trgm's <->)", trgmSimilarity, false)},
		{"<<->", "word_similarity_dist_op", distance("1 - word_similarity (pg_trgm's <<->)", wordSml, false)},
		{"<->>", "word_similarity_dist_commutator_op", distance("1 - word_similarity(b, a) (pg_trgm's <->>)", wordSml, true)},
		{"<<<->", "strict_word_similarity_dist_op", distance("1 - strict_word_similarity (pg_trgm's <<<->)", strictSml, false)},
		{"<->>>", "strict_word_similarity_dist_commutator_op", distance("1 - strict_word_similarity(b, a) (pg_trgm's <->>>)", strictSml, true)},
	} {
		RegisterOperator(o.op, o.ov)
		Register(o.fn, o.ov)
	}
}

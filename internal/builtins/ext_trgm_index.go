package builtins

import (
	"unicode"
	"unicode/utf8"
)

// Trigrams for inverted indexes (catalog/inverted.go's gin_trgm_ops): the
// tokens of a text are its pg_trgm trigrams, and a LIKE pattern names the
// trigrams every text it matches must have, as pg_trgm's
// generate_wildcard_trgm extracts them.

// Trigrams returns the distinct trigrams of s (show_trgm's set), each as
// its three bytes.
func Trigrams(s string) [][3]byte {
	set := trgmSet(s)
	out := make([][3]byte, len(set))
	for i, t := range set {
		out[i] = t
	}
	return out
}

// LikeTrigrams returns the trigrams every string matching LIKE (or ILIKE)
// pattern has, with escape the pattern's escape character (0: none). A
// run of word characters between two characters known not to be word
// characters (or the pattern's ends, which are the string's) is a whole
// word, padded as pg_trgm pads words; one beside a wildcard (%, _) may
// continue in the string, so it is not padded on that side. A run shorter
// than a trigram after padding yields none. pg_trgm's trigrams fold case,
// so LIKE and ILIKE extract the same ones (the matches are rechecked).
func LikeTrigrams(pattern string, escape byte) [][3]byte {
	type char struct {
		r        rune
		wildcard bool
	}
	var chars []char
	for i := 0; i < len(pattern); {
		c := pattern[i]
		if escape != 0 && c == escape && i+1 < len(pattern) {
			r, n := utf8.DecodeRuneInString(pattern[i+1:])
			chars = append(chars, char{r: r})
			i += 1 + n
			continue
		}
		r, n := utf8.DecodeRuneInString(pattern[i:])
		chars = append(chars, char{r: r, wildcard: c == '%' || c == '_'})
		i += n
	}
	seen := map[trgm]bool{}
	var out [][3]byte
	word := func(c char) bool { return !c.wildcard && trgmWordChar(c.r) }
	buf := make([]byte, 0, len(pattern)+3)
	for i := 0; i < len(chars); {
		if !word(chars[i]) {
			i++
			continue
		}
		// A word: padded on a side where a non-word character (or the
		// pattern's end) bounds it.
		buf = buf[:0]
		if i == 0 || !chars[i-1].wildcard {
			buf = append(buf, ' ', ' ')
		}
		for i < len(chars) && word(chars[i]) {
			buf = utf8.AppendRune(buf, unicode.ToLower(chars[i].r))
			i++
		}
		if i == len(chars) || !chars[i].wildcard {
			buf = append(buf, ' ')
		}
		for _, t := range appendWordTrgms(nil, buf) {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

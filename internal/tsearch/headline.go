package tsearch

import (
	"math"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// HeadlineOptions are ts_headline's options.
type HeadlineOptions struct {
	MaxWords, MinWords, ShortWord, MaxFragments int
	StartSel, StopSel, FragmentDelimiter        string
	HighlightAll                                bool
}

// ParseHeadlineOptions reads ts_headline's options text ("MaxWords=10,
// StartSel=<em>"), checking the values as prsd_headline does.
func ParseHeadlineOptions(s string) (HeadlineOptions, error) {
	o := HeadlineOptions{MaxWords: 35, MinWords: 15, ShortWord: 3, StartSel: "<b>", StopSel: "</b>", FragmentDelimiter: " ... "}
	if err := CheckHeadlineOptionsList(s); err != nil {
		return o, err
	}
	for _, item := range splitOptions(s) {
		k, v, _ := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = strings.ReplaceAll(v[1:len(v)-1], string(v[0])+string(v[0]), string(v[0]))
		}
		num := func() (int, error) {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
			if err != nil {
				return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type integer: \"%s\"", v)
			}
			return int(n), nil
		}
		var err error
		switch strings.ToLower(k) {
		case "maxwords":
			o.MaxWords, err = num()
		case "minwords":
			o.MinWords, err = num()
		case "shortword":
			o.ShortWord, err = num()
		case "maxfragments":
			o.MaxFragments, err = num()
		case "startsel":
			o.StartSel = v
		case "stopsel":
			o.StopSel = v
		case "fragmentdelimiter":
			o.FragmentDelimiter = v
		case "highlightall":
			switch strings.ToLower(v) {
			case "1", "on", "true", "t", "y", "yes":
				o.HighlightAll = true
			default:
				o.HighlightAll = false
			}
		default:
			return o, pgerr.New(pgerr.InvalidParameterValue, "unrecognized headline parameter: \"%s\"", k)
		}
		if err != nil {
			return o, err
		}
	}
	if !o.HighlightAll {
		switch {
		case o.MinWords >= o.MaxWords:
			return o, pgerr.New(pgerr.InvalidParameterValue, "MinWords should be less than MaxWords")
		case o.MinWords <= 0:
			return o, pgerr.New(pgerr.InvalidParameterValue, "MinWords should be positive")
		case o.ShortWord < 0:
			return o, pgerr.New(pgerr.InvalidParameterValue, "ShortWord should be >= 0")
		case o.MaxFragments < 0:
			return o, pgerr.New(pgerr.InvalidParameterValue, "MaxFragments should be >= 0")
		}
	}
	return o, nil
}

// CheckHeadlineOptionsList is deserialize_deflist's check of the options
// text alone, before any value is looked at: every item is name=value
// (42601 otherwise). ts_headline of json and jsonb makes it whatever the
// document holds, the values' checks only when it highlights a string.
func CheckHeadlineOptionsList(s string) error {
	for _, item := range splitOptions(s) {
		if !strings.Contains(item, "=") {
			return pgerr.New(pgerr.SyntaxError, "invalid parameter list format: \"%s\"", s)
		}
	}
	return nil
}

// maxCover is prsd_headline's bound on a cover's length in words.
func (o HeadlineOptions) maxCover() int {
	n := max(o.MaxWords*10, 100)
	if o.MaxFragments > 0 {
		n *= o.MaxFragments
	}
	return n
}

// splitOptions splits the options text at commas outside quotes.
func splitOptions(s string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// hlWord is HeadlineWordEntry: one token of the document, the query
// operand its lexeme matches, and how the headline shows it.
type hlWord struct {
	tok      Token
	pos      int
	item     *sqltypes.TSQueryNode
	repeated bool
	selected bool
	in       bool
	replace  bool
	skip     bool
}

// hlParse is hlparsetext: the document's tokens, each indexed one given
// its position and the operand its lexeme matches (a copy of the token,
// marked repeated, for each further operand).
func (c *Config) hlParse(s string, q *sqltypes.TSQueryValue) []hlWord {
	var operands []*sqltypes.TSQueryNode
	for _, n := range q.Polish() {
		if n.Op == sqltypes.TSVal {
			operands = append(operands, n)
		}
	}
	var words []hlWord
	pos := 0
	for _, t := range Parse(s) {
		words = append(words, hlWord{tok: t})
		d := c.dict(t.Type)
		if d == 0 || len(t.Text) >= sqltypes.TSMaxLexemeLen {
			continue
		}
		pos++
		idx := len(words) - 1
		for _, l := range d.Lexize(t.Text) {
			words[idx].pos = min(pos, sqltypes.TSMaxEntryPos-1)
			for _, op := range operands {
				if op.Word == l || op.Prefix && strings.HasPrefix(l, op.Word) {
					if words[idx].item != nil {
						dup := words[idx]
						dup.item, dup.repeated = op, true
						words = append(words, dup)
					} else {
						words[idx].item = op
					}
				}
			}
		}
	}
	return words
}

// hlCheck is checkcondition_HL: an operand's positions among a range of
// words.
func hlCheck(words []hlWord) checkFunc {
	return func(n *sqltypes.TSQueryNode, data *phraseData) ternary {
		found := false
		for _, w := range words {
			if w.item != n {
				continue
			}
			if data == nil {
				return tsYes
			}
			if !found || data.pos[len(data.pos)-1] < w.pos {
				data.pos = append(data.pos, w.pos)
			}
			found = true
		}
		if found {
			return tsYes
		}
		return tsNo
	}
}

// hlFirstIndex is the first word from index from on that a query operand
// matches, or -1.
func hlFirstIndex(words []hlWord, from int) int {
	for i := from; i < len(words); i++ {
		if words[i].item != nil {
			return i
		}
	}
	return -1
}

// hlCover is PostgreSQL's hlCover: the earliest, shortest stretch of
// words from index *next on, both of whose ends are query words, of at
// most maxCover words, that satisfies the query; *next moves past its
// start.
func hlCover(words []hlWord, root *sqltypes.TSQueryNode, maxCover int, next *int) (p, q int, ok bool) {
	pmin := hlFirstIndex(words, *next)
	for pmin >= 0 {
		nextpmin := -1
		for pmax := pmin; pmax >= 0 && pmax-pmin < maxCover; {
			if execute(hlCheck(words[pmin:pmax+1]), root) != tsNo {
				*next = pmin + 1
				return pmin, pmax, true
			}
			nextpmax := hlFirstIndex(words, pmax+1)
			if pmax == pmin {
				nextpmin = nextpmax
			}
			pmax = nextpmax
		}
		pmin = nextpmin
	}
	return 0, 0, false
}

func nonWord(t TokenType) bool {
	return t == Blank || t == Tag || t == URL || t == NumHWord || t == ASCIIHWord || t == HWord
}

func noEnd(t TokenType) bool {
	return nonWord(t) || t == SFloat || t == Version || t == Float || t == Int || t == UInt || t == Protocol || t == Entity
}

// Headline is ts_headline: the document with the query's words marked,
// cut to the best stretch (mark_hl_words) or to the best MaxFragments
// fragments (mark_hl_fragments), unless HighlightAll (and no fragments)
// keeps all of it.
func (c *Config) Headline(doc string, q *sqltypes.TSQueryValue, o HeadlineOptions) string {
	h := &headline{words: c.hlParse(doc, q), q: q, o: o}
	if o.MaxFragments == 0 {
		h.markWords()
	} else {
		h.markFragments()
	}
	var b strings.Builder
	infrag, frags := false, 0
	for _, w := range h.words {
		switch {
		case w.in && !w.repeated:
			if !infrag {
				infrag = true
				frags++
				if frags > 1 {
					b.WriteString(o.FragmentDelimiter)
				}
			}
			switch {
			case w.replace:
				b.WriteByte(' ')
			case !w.skip:
				if w.selected {
					b.WriteString(o.StartSel)
				}
				b.WriteString(w.tok.Text)
				if w.selected {
					b.WriteString(o.StopSel)
				}
			}
		case !w.repeated:
			infrag = false
		}
	}
	return b.String()
}

// headline is the parsed document and the options a headline selector
// works on.
type headline struct {
	words []hlWord
	q     *sqltypes.TSQueryValue
	o     HeadlineOptions
}

// interesting is INTERESTINGWORD: a query word, not a repeat.
func (h *headline) interesting(i int) bool { return h.words[i].item != nil && !h.words[i].repeated }

// badEnd is BADENDPOINT: a non-word or short word that is not interesting.
func (h *headline) badEnd(i int) bool {
	w := &h.words[i]
	return (noEnd(w.tok.Type) || len(w.tok.Text) <= h.o.ShortWord) && !h.interesting(i)
}

// isWord counts toward a headline's length (!NONWORDTOKEN).
func (h *headline) isWord(i int) bool { return !nonWord(h.words[i].tok.Type) }

// covers calls fn with each cover of the query, as hlCover finds them.
func (h *headline) covers(fn func(p, q int)) {
	if h.q.Root == nil {
		return
	}
	next := 0
	for {
		p, q, ok := hlCover(h.words, h.q.Root, h.o.maxCover(), &next)
		if !ok {
			return
		}
		fn(p, q)
	}
}

// markFragment is mark_fragment: words start..end in the headline.
func (h *headline) markFragment(start, end int) {
	for i := start; i <= end && i < len(h.words); i++ {
		w := &h.words[i]
		if w.item != nil {
			w.selected = true
		}
		switch {
		case !h.o.HighlightAll && w.tok.Type == Tag:
			w.replace = true
		case w.tok.Type == URL || w.tok.Type == NumHWord || w.tok.Type == ASCIIHWord || w.tok.Type == HWord:
			w.skip = true
		}
		w.in = !w.repeated
	}
}

// firstWords is the stretch of the first MinWords words, shown when no
// cover is chosen.
func (h *headline) firstWords() int {
	curlen, pose := 0, 0
	for i := 0; i < len(h.words) && curlen < h.o.MinWords; i++ {
		if h.isWord(i) {
			curlen++
		}
		pose = i
	}
	return pose
}

// markWords is mark_hl_words.
func (h *headline) markWords() {
	o := h.o
	if o.HighlightAll {
		h.markFragment(0, len(h.words)-1)
		return
	}
	bestb, beste, bestlen, bestcover := -1, -1, -1, false
	h.covers(func(p, q int) {
		curlen, poslen := 0, 0
		posb, pose := p, p
		i := p
		for ; i <= q && curlen < o.MaxWords; i++ {
			if h.isWord(i) {
				curlen++
			}
			if h.interesting(i) {
				poslen++
			}
			pose = i
		}
		if curlen < o.MaxWords {
			for i = i - 1; i < len(h.words) && curlen < o.MaxWords; i++ {
				if i > q {
					if h.isWord(i) {
						curlen++
					}
					if h.interesting(i) {
						poslen++
					}
				}
				pose = i
				if h.badEnd(i) {
					continue
				}
				if curlen >= o.MinWords {
					break
				}
			}
			if curlen < o.MinWords {
				for i = p - 1; i >= 0; i-- {
					if h.isWord(i) {
						curlen++
					}
					if h.interesting(i) {
						poslen++
					}
					if curlen >= o.MaxWords {
						break
					}
					if h.badEnd(i) {
						continue
					}
					if curlen >= o.MinWords {
						break
					}
				}
				posb = max(i, 0)
			}
		} else {
			if i > q {
				i = q
			}
			for ; curlen > o.MinWords; i-- {
				if !h.badEnd(i) {
					break
				}
				if h.isWord(i) {
					curlen--
				}
				if h.interesting(i) {
					poslen--
				}
				pose = i - 1
			}
		}
		poscover := posb <= p && pose >= q
		if b2i(poscover) > b2i(bestcover) || poscover == bestcover && poslen > bestlen ||
			poscover == bestcover && poslen == bestlen && !h.badEnd(pose) && beste >= 0 && h.badEnd(beste) {
			bestb, beste, bestlen, bestcover = posb, pose, poslen, poscover
		}
	})
	if bestlen < 0 {
		bestb, beste = 0, h.firstWords()
	}
	h.markFragment(bestb, beste)
}

// fragment is CoverPos: one fragment of a cover for markFragments.
type fragment struct {
	start, end, poslen, curlen int
	chosen, excluded           bool
}

// nextFragment is get_next_fragment: the next piece of the cover
// [*start, *end] of at most MaxWords words, both ends query words.
func (h *headline) nextFragment(start, end *int) (curlen, poslen int) {
	for i := *start; i <= *end; i++ {
		*start = i
		if h.interesting(i) {
			break
		}
	}
	i := *start
	for ; i <= *end && curlen < h.o.MaxWords; i++ {
		if h.isWord(i) {
			curlen++
		}
		if h.interesting(i) {
			poslen++
		}
	}
	if *end > i {
		*end = i
		for i = *end; i >= *start; i-- {
			*end = i
			if h.interesting(i) {
				break
			}
			if h.isWord(i) {
				curlen--
			}
		}
	}
	return curlen, poslen
}

// markFragments is mark_hl_fragments: the covers cut into fragments of at
// most MaxWords words, the MaxFragments with the most query words (then
// the fewest words) chosen, each stretched toward MaxWords, overlapping
// ones excluded.
func (h *headline) markFragments() {
	o := h.o
	var covers []fragment
	h.covers(func(p, q int) {
		start, end := p, q
		for start <= end {
			curlen, poslen := h.nextFragment(&start, &end)
			covers = append(covers, fragment{start: start, end: end, curlen: curlen, poslen: poslen})
			start, end = end+1, q
		}
	})
	chosen := 0
	for f := 0; f < o.MaxFragments; f++ {
		maxitems, minwords, best := 0, math.MaxInt32, -1
		for i := range covers {
			c := &covers[i]
			if !c.chosen && !c.excluded && (maxitems < c.poslen || maxitems == c.poslen && minwords > c.curlen) {
				maxitems, minwords, best = c.poslen, c.curlen, i
			}
		}
		if best < 0 {
			break
		}
		c := &covers[best]
		c.chosen = true
		start, end, curlen := c.start, c.end, c.curlen
		if curlen < o.MaxWords {
			maxstretch := (o.MaxWords - curlen) / 2
			stretch, marker := 0, start
			for i := start - 1; i >= 0 && stretch < maxstretch && !h.words[i].in; i-- {
				if h.isWord(i) {
					curlen++
					stretch++
				}
				marker = i
			}
			i := marker
			for ; i < start && h.badEnd(i); i++ {
				if h.isWord(i) {
					curlen--
				}
			}
			start = i
			marker = end
			for i = end + 1; i < len(h.words) && curlen < o.MaxWords && !h.words[i].in; i++ {
				if h.isWord(i) {
					curlen++
				}
				marker = i
			}
			for i = marker; i > end && h.badEnd(i); i-- {
				if h.isWord(i) {
					curlen--
				}
			}
			end = i
		}
		c.start, c.end, c.curlen = start, end, curlen
		h.markFragment(start, end)
		chosen++
		for i := range covers {
			d := &covers[i]
			if i != best && (d.start >= start && d.start <= end || d.end >= start && d.end <= end || d.start < start && d.end > end) {
				d.excluded = true
			}
		}
	}
	if chosen == 0 {
		h.markFragment(0, h.firstWords())
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

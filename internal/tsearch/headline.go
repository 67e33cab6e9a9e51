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
	for _, item := range splitOptions(s) {
		k, v, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return o, pgerr.New(pgerr.SyntaxError, "invalid parameter list format: \"%s\"", s)
		}
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
	if o.MaxFragments > 0 {
		return o, pgerr.New(pgerr.FeatureNotSupported, "ts_headline with MaxFragments is not supported")
	}
	return o, nil
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

// locations is TS_execute_locations: when the query matches, the
// positions of each AND'ed term or phrase (ORs combined pairwise, NOTs
// contributing none).
func locations(check checkFunc, n *sqltypes.TSQueryNode) ([]*phraseData, bool) {
	switch n.Op {
	case sqltypes.TSVal:
		d := &phraseData{}
		if check(n, d) == tsYes {
			return []*phraseData{d}, true
		}
		return nil, false
	case sqltypes.TSNot:
		// A negation has no locations of its own; whether it holds is
		// checked on each candidate range.
		return nil, true
	case sqltypes.TSAnd:
		l, ok := locations(check, n.Left)
		if !ok {
			return nil, false
		}
		r, ok := locations(check, n.Right)
		if !ok {
			return nil, false
		}
		return append(l, r...), true
	case sqltypes.TSOr:
		l, lok := locations(check, n.Left)
		r, rok := locations(check, n.Right)
		if !lok && !rok {
			return nil, false
		}
		switch {
		case l == nil:
			return r, true
		case r == nil:
			return l, true
		}
		var out []*phraseData
		for _, ld := range l {
			for _, rd := range r {
				d := &phraseData{}
				phraseOutput(d, ld, rd, emitBoth|emitLOnly|emitROnly, 0, 0)
				d.width = max(ld.width, rd.width)
				out = append(out, d)
			}
		}
		return out, true
	case sqltypes.TSPhrase:
		d := &phraseData{}
		if phraseExecute(check, n, d) == tsYes {
			if !d.negate {
				return []*phraseData{d}, true
			}
			return nil, true
		}
	}
	return nil, false
}

// hlCover finds the next cover from lexeme position *next: the word
// range from the first to the last word of the shortest stretch where
// every AND'ed term occurs, that satisfies the query.
func hlCover(words []hlWord, root *sqltypes.TSQueryNode, locs []*phraseData, next *int) (p, q int, ok bool) {
	pos := *next
	for {
		pose := -1
		for _, d := range locs {
			first := -1
			for _, e := range d.pos {
				if e >= pos {
					first = e
					break
				}
			}
			if first < 0 {
				return 0, 0, false
			}
			pose = max(pose, first)
		}
		if pose < 0 {
			return 0, 0, false
		}
		posb := math.MaxInt - 1
		for _, d := range locs {
			last := -1
			for i := len(d.pos) - 1; i >= 0; i-- {
				if s := d.pos[i] - d.width; s <= pose {
					last = s
					break
				}
			}
			posb = min(posb, last)
		}
		p, q = -1, -1
		for i, w := range words {
			if w.pos >= posb && w.pos > 0 && p < 0 {
				p = i
			}
			if w.pos >= pose && q < 0 {
				q = i
			}
		}
		// Each try starts past the last one's start, so the search ends.
		if p >= 0 && q >= p && execute(hlCheck(words[p:q+1]), root) != tsNo {
			*next = max(posb, *next) + 1
			return p, q, true
		}
		pos = max(posb, pos) + 1
	}
}

func nonWord(t TokenType) bool {
	return t == Blank || t == Tag || t == URL || t == NumHWord || t == ASCIIHWord || t == HWord
}

func noEnd(t TokenType) bool {
	return nonWord(t) || t == SFloat || t == Version || t == Float || t == Int || t == UInt || t == Protocol || t == Entity
}

// Headline is ts_headline: the document with the query's words marked, cut
// to the best stretch (mark_hl_words) unless HighlightAll.
func (c *Config) Headline(doc string, q *sqltypes.TSQueryValue, o HeadlineOptions) string {
	words := c.hlParse(doc, q)
	interesting := func(i int) bool { return words[i].item != nil && !words[i].repeated }
	badEnd := func(i int) bool {
		return (noEnd(words[i].tok.Type) || len(words[i].tok.Text) <= o.ShortWord) && !interesting(i)
	}
	var bestb, beste int
	if o.HighlightAll {
		bestb, beste = 0, len(words)-1
	} else {
		bestb, beste = -1, -1
		bestlen, bestcover := -1, false
		if q.Root != nil {
			locs, _ := locations(hlCheck(words), q.Root)
			next := 0
			for {
				p, qq, ok := hlCover(words, q.Root, locs, &next)
				if !ok {
					break
				}
				curlen, poslen := 0, 0
				posb, pose := p, p
				i := p
				for ; i <= qq && curlen < o.MaxWords; i++ {
					if !nonWord(words[i].tok.Type) {
						curlen++
					}
					if interesting(i) {
						poslen++
					}
					pose = i
				}
				if curlen < o.MaxWords {
					for i = i - 1; i < len(words) && curlen < o.MaxWords; i++ {
						if i > qq {
							if !nonWord(words[i].tok.Type) {
								curlen++
							}
							if interesting(i) {
								poslen++
							}
						}
						pose = i
						if badEnd(i) {
							continue
						}
						if curlen >= o.MinWords {
							break
						}
					}
					if curlen < o.MinWords {
						for i = p - 1; i >= 0; i-- {
							if !nonWord(words[i].tok.Type) {
								curlen++
							}
							if interesting(i) {
								poslen++
							}
							if curlen >= o.MaxWords {
								break
							}
							if badEnd(i) {
								continue
							}
							if curlen >= o.MinWords {
								break
							}
						}
						posb = max(i, 0)
					}
				} else {
					if i > qq {
						i = qq
					}
					for ; curlen > o.MinWords; i-- {
						if !badEnd(i) {
							break
						}
						if !nonWord(words[i].tok.Type) {
							curlen--
						}
						if interesting(i) {
							poslen--
						}
						pose = i - 1
					}
				}
				poscover := posb <= p && pose >= qq
				if b2i(poscover) > b2i(bestcover) || poscover == bestcover && poslen > bestlen ||
					poscover == bestcover && poslen == bestlen && !badEnd(pose) && beste >= 0 && badEnd(beste) {
					bestb, beste, bestlen, bestcover = posb, pose, poslen, poscover
				}
			}
		}
		if bestlen < 0 {
			curlen, pose := 0, 0
			for i := 0; i < len(words) && curlen < o.MinWords; i++ {
				if !nonWord(words[i].tok.Type) {
					curlen++
				}
				pose = i
			}
			bestb, beste = 0, pose
		}
	}
	for i := bestb; i <= beste && i < len(words); i++ {
		w := &words[i]
		if w.item != nil {
			w.selected = true
		}
		if !o.HighlightAll {
			if w.tok.Type == Tag {
				w.replace = true
			} else if w.tok.Type == URL || w.tok.Type == NumHWord || w.tok.Type == ASCIIHWord || w.tok.Type == HWord {
				w.skip = true
			}
		} else if w.tok.Type == URL || w.tok.Type == NumHWord || w.tok.Type == ASCIIHWord || w.tok.Type == HWord {
			w.skip = true
		}
		w.in = !w.repeated
	}
	var b strings.Builder
	infrag, frags := false, 0
	for _, w := range words {
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

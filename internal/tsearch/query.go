package tsearch

import "github.com/zproxy/zproxy/internal/sqltypes"

// QueryKind is one of the functions that make a tsquery from text.
type QueryKind int

// The tsquery makers.
const (
	// ToTSQuery reads tsquery syntax, each operand through the
	// configuration, the words of one operand joined by <->.
	ToTSQuery QueryKind = iota
	// PlainToTSQuery joins the text's words by &.
	PlainToTSQuery
	// PhraseToTSQuery joins the text's words by <->.
	PhraseToTSQuery
	// WebsearchToTSQuery reads web search syntax ("quoted phrases", or,
	// -negation).
	WebsearchToTSQuery
)

var queryModes = map[string]QueryKind{
	"to_tsquery":           ToTSQuery,
	"plainto_tsquery":      PlainToTSQuery,
	"phraseto_tsquery":     PhraseToTSQuery,
	"websearch_to_tsquery": WebsearchToTSQuery,
}

// ToTSQuery makes a tsquery from text as the function of that kind does
// (parse_tsquery with pushval_morph).
func (c *Config) ToTSQuery(s string, kind QueryKind) (*sqltypes.TSQueryValue, error) {
	mode, op := sqltypes.TSQueryStandard, sqltypes.TSPhrase
	switch kind {
	case PlainToTSQuery:
		mode, op = sqltypes.TSQueryPlain, sqltypes.TSAnd
	case PhraseToTSQuery:
		mode = sqltypes.TSQueryPlain
	case WebsearchToTSQuery:
		mode = sqltypes.TSQueryWeb
	}
	return sqltypes.ParseTSQuery(s, mode, func(b *sqltypes.TSQueryBuilder, word string, weight uint8, prefix bool) error {
		return c.pushMorph(b, op, word, weight, prefix)
	})
}

// pushMorph is pushval_morph: an operand's words through the
// configuration, one after another joined by op, a stop word inside
// leaving a placeholder so that phrase distances count it.
func (c *Config) pushMorph(b *sqltypes.TSQueryBuilder, op sqltypes.TSQueryOp, word string, weight uint8, prefix bool) error {
	words := c.ParseText(word)
	if len(words) == 0 {
		b.PushStop()
		return nil
	}
	pos, cntpos := 0, 0
	for count := 0; count < len(words); {
		if pos > 0 {
			for pos+1 < words[count].Pos {
				b.PushStop()
				if cntpos > 0 {
					if err := b.PushOperator(op, 1); err != nil {
						return err
					}
				}
				cntpos++
				pos++
			}
		}
		pos = words[count].Pos
		cnt := 0
		for count < len(words) && words[count].Pos == pos {
			if err := b.PushValue(words[count].Word, weight, prefix); err != nil {
				return err
			}
			if cnt > 0 {
				if err := b.PushOperator(sqltypes.TSAnd, 0); err != nil {
					return err
				}
			}
			cnt++
			count++
		}
		if cntpos > 0 {
			if err := b.PushOperator(op, 1); err != nil {
				return err
			}
		}
		cntpos++
	}
	return nil
}

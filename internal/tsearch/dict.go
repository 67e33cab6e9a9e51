package tsearch

import (
	"strings"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Dictionary is one of the text search dictionaries.
type Dictionary int

// The dictionaries: simple (lower case) and english_stem (Snowball's
// English stemmer after PostgreSQL's english stop words).
const (
	Simple Dictionary = iota + 1
	EnglishStem
)

// DictionaryName is the dictionary's name in pg_ts_dict.
func (d Dictionary) Name() string {
	if d == EnglishStem {
		return "english_stem"
	}
	return "simple"
}

// DictionaryByName finds a dictionary by (possibly pg_catalog-qualified)
// name, as ts_lexize's regdictionary argument does.
func DictionaryByName(name string) (Dictionary, error) {
	parts, err := sqltypes.SplitQualifiedName(name)
	if err != nil {
		return 0, err
	}
	n := parts[len(parts)-1]
	if len(parts) <= 2 && (len(parts) == 1 || parts[0] == "pg_catalog") {
		switch n {
		case "simple":
			return Simple, nil
		case "english_stem":
			return EnglishStem, nil
		}
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "text search dictionary \"%s\" does not exist", strings.Join(parts, "."))
}

// lower is str_tolower for the database's UTF-8 locale.
func lower(s string) string { return strings.ToLower(s) }

// Lexize runs a word through the dictionary: its lexemes, none for a stop
// word.
func (d Dictionary) Lexize(word string) []string {
	w := lower(word)
	switch d {
	case EnglishStem:
		if len(word) > 1000 {
			return []string{w}
		}
		if w == "" || english.IsStopWord(w) {
			return nil
		}
		// Snowball leaves words of fewer than three characters alone;
		// the library counts bytes, PostgreSQL's UTF-8 stemmer characters.
		if utf8.RuneCountInString(w) <= 2 {
			return []string{w}
		}
		return []string{english.Stem(w, true)}
	}
	return []string{w}
}

// Config is a text search configuration: which dictionary each token
// type goes through (none: the type is not indexed).
type Config struct {
	OID  uint32
	Name string
	dict func(TokenType) Dictionary
}

// DefaultParserOID is the default parser's pg_ts_parser OID.
const DefaultParserOID = 3722

// The configurations.
var (
	SimpleConfig = &Config{OID: 3748, Name: "simple", dict: func(t TokenType) Dictionary {
		if t == Tag || t == Entity || t == Blank || t == Protocol {
			return 0
		}
		return Simple
	}}
	EnglishConfig = &Config{OID: 13164, Name: "english", dict: func(t TokenType) Dictionary {
		switch t {
		case Tag, Entity, Blank, Protocol:
			return 0
		case ASCIIWord, Word, ASCIIHWord, HWord, HWordASCIIPart, HWordPart:
			return EnglishStem
		}
		return Simple
	}}
)

// ConfigByOID returns the configuration a regconfig names.
func ConfigByOID(oid uint32) (*Config, error) {
	switch oid {
	case SimpleConfig.OID:
		return SimpleConfig, nil
	case EnglishConfig.OID:
		return EnglishConfig, nil
	}
	return nil, pgerr.New(pgerr.InternalError, "cache lookup failed for text search configuration %d", oid)
}

// Dictionary is the dictionary a token type goes through (0: none).
func (c *Config) Dictionary(t TokenType) Dictionary { return c.dict(t) }

// ParsedWord is a lexeme of parsed text at its position.
type ParsedWord struct {
	Word string
	Pos  int
}

// ParseText is parsetext: the text's tokens through the configuration's
// dictionaries, each indexed token taking the next position (a stop word
// takes one too and yields nothing). Words too long to index are skipped.
func (c *Config) ParseText(s string) []ParsedWord {
	out, _ := c.parseText(nil, s, 0)
	return out
}

// parseText appends the text's words, positions counted on from pos, and
// returns the last position taken.
func (c *Config) parseText(out []ParsedWord, s string, pos int) ([]ParsedWord, int) {
	for _, t := range Parse(s) {
		d := c.dict(t.Type)
		if d == 0 {
			continue
		}
		if len(t.Text) >= sqltypes.TSMaxLexemeLen {
			continue
		}
		pos++
		for _, l := range d.Lexize(t.Text) {
			out = append(out, ParsedWord{Word: l, Pos: pos})
		}
	}
	return out, pos
}

// ToTSVector is to_tsvector(config, text).
func (c *Config) ToTSVector(s string) (*sqltypes.TSVectorValue, error) {
	return makeVector(c.ParseText(s))
}

// ToTSVectorOf is to_tsvector over a json document's strings: each text's
// words after the last's, a position left out after a text that had any,
// so that a phrase does not run from one string into the next.
func (c *Config) ToTSVectorOf(texts []string) (*sqltypes.TSVectorValue, error) {
	var words []ParsedWord
	pos := 0
	for _, s := range texts {
		n := len(words)
		words, pos = c.parseText(words, s, pos)
		if len(words) > n {
			pos++
		}
	}
	return makeVector(words)
}

// makeVector is make_tsvector: the words' lexemes with their positions.
// PostgreSQL's uniqueWORD keeps at most TSMaxNumPos-1 positions of a word
// (255), where a tsvector read from text keeps TSMaxNumPos (uniquePos);
// then the lexemes with their positions, laid out as a tsvector stores
// them (each lexeme's positions 2-byte aligned after it, with their
// count), must fit in TSMaxStrPos bytes: 54000 "string is too long for
// tsvector" past it, as PostgreSQL's.
func makeVector(words []ParsedWord) (*sqltypes.TSVectorValue, error) {
	lex := make([]sqltypes.TSLexeme, 0, len(words))
	for _, w := range words {
		lex = append(lex, sqltypes.TSLexeme{Word: w.Word, Pos: []sqltypes.TSPos{sqltypes.MakeTSPos(w.Pos, 0)}})
	}
	v := sqltypes.MakeTSVector(lex)
	size := 0
	for i := range v.Lexemes {
		if p := v.Lexemes[i].Pos; len(p) >= sqltypes.TSMaxNumPos {
			v.Lexemes[i].Pos = p[:sqltypes.TSMaxNumPos-1]
		}
		size += len(v.Lexemes[i].Word)
		if n := len(v.Lexemes[i].Pos); n > 0 {
			size += size&1 + 2 + 2*n // SHORTALIGN, the count, the positions
		}
	}
	if size > sqltypes.TSMaxStrPos {
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "string is too long for tsvector (%d bytes, max %d bytes)", size, sqltypes.TSMaxStrPos)
	}
	return v, nil
}

package catalog

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Inverted (GIN) indexes. A btree or Z-order index has one entry per row;
// an inverted index has one per token of the row's key value: the keys and
// scalars of a jsonb document, the elements of an array. Its entries are
//
//	partition 'I' ‖ index id ‖ shard (a hash of the primary key)
//	sort      key part (1 byte) ‖ token ‖ tuple(primary key columns)
//
// with the primary key columns as the entry's attributes: a posting added
// since the token's list was last packed into blocks, which share its key
// range (postings.go). Every token encoding is prefix-free, so the entries
// of one token are exactly the key range [token, PrefixEnd(token)) of each
// shard, and the bytes after the token are the row's encoded primary key
// (or a marker, then a block's or a removal's): a query reads the posting list
// of each token it needs, combines the lists (AND for containment, OR for
// overlap), and gets the rows. Tokens lose structure (where in a document
// a key was), so the rows are always rechecked against the predicate, as
// PostgreSQL's GIN rechecks.
//
// The operator classes are PostgreSQL's:
//
//	jsonb_ops       (default for jsonb) a token per object key and per
//	                scalar: @>, ?, ?|, ?&
//	jsonb_path_ops  a token per scalar, hashed with the keys on its path:
//	                @> only, with fewer and more selective tokens
//	array_ops       (default for arrays) a token per non-NULL element, and
//	                one marking an empty array: @>, <@, &&, =
//	gin_trgm_ops    (pg_trgm, for text) a token per trigram of the text
//	                (show_trgm's): LIKE, ILIKE and = by the trigrams every
//	                match must have
//
// As in PostgreSQL's jsonb_ops, a string that is an array element (or a
// whole scalar document) is tokenized as a key, so that ? finds it; a
// string that is an object's value as a value.

// KindGIN is an inverted index (CREATE INDEX ... USING gin).
const KindGIN IndexKind = "gin"

// Operator classes of inverted indexes (KeyColumn.Opclass).
const (
	OpclassJSONB     = "jsonb_ops"
	OpclassJSONBPath = "jsonb_path_ops"
	OpclassArray     = "array_ops"
	OpclassTrigram   = "gin_trgm_ops"
	OpclassTSVector  = "tsvector_ops"
)

// Token tags: the first byte of every token says what it stands for.
const (
	tokenKey       = 'K' // jsonb_ops: an object key, or a string element
	tokenValue     = 'V' // jsonb_ops: any other scalar
	tokenPath      = 'P' // jsonb_path_ops: hash of a scalar and its path
	tokenElem      = 'A' // array_ops: an element
	tokenEmptyList = 'E' // array_ops: the array has no elements
	tokenTrigram   = 'G' // gin_trgm_ops: a trigram
	tokenLexeme    = 'L' // tsvector_ops: a lexeme, then a 0 byte
)

// Inverted reports whether ix is an inverted index.
func (ix *Index) Inverted() bool { return ix.Kind == KindGIN }

// DefaultOpclass returns the operator class a GIN key of type t gets when
// CREATE INDEX names none, or an error as PostgreSQL's for a type without
// one (42704).
func DefaultOpclass(t sqltypes.Type) (string, error) {
	switch {
	case t.ID == sqltypes.JSONB:
		return OpclassJSONB, nil
	case t.ID == sqltypes.Array && ElementTokenizable(t):
		return OpclassArray, nil
	case t.ID == sqltypes.TSVector:
		return OpclassTSVector, nil
	}
	return "", pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method \"gin\"", t).
		WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
}

// CheckOpclass reports whether operator class name can index a key of
// type t (PostgreSQL: 42704 for an unknown class, 42804 for the wrong
// type).
func CheckOpclass(name string, t sqltypes.Type) error {
	var ok bool
	want := "jsonb"
	switch name {
	case OpclassJSONB, OpclassJSONBPath:
		ok = t.ID == sqltypes.JSONB
	case OpclassArray:
		want = "anyarray"
		ok = t.ID == sqltypes.Array
		if ok && !ElementTokenizable(t) {
			return pgerr.New(pgerr.FeatureNotSupported, "gin indexes on arrays of %s are not supported", sqltypes.Type{ID: t.Elem})
		}
	case OpclassTrigram:
		want = "text"
		ok = t.ID == sqltypes.Text || t.ID == sqltypes.Varchar
	case OpclassTSVector:
		want = "tsvector"
		ok = t.ID == sqltypes.TSVector
	default:
		return pgerr.New(pgerr.UndefinedObject, "operator class \"%s\" does not exist for access method \"gin\"", name)
	}
	if !ok {
		return pgerr.New(pgerr.DatatypeMismatch, "operator class \"%s\" does not accept data type %s", name, t).WithHint("The operator class works on %s.", want)
	}
	return nil
}

// ElementTokenizable reports whether the elements of array type t have a
// key encoding that keeps equality exactly (documents and nested
// containers do not: equal jsonb can print differently).
func ElementTokenizable(t sqltypes.Type) bool {
	switch t.Elem {
	case sqltypes.JSON, sqltypes.JSONB, sqltypes.Hstore, sqltypes.Array, sqltypes.Record, sqltypes.Unknown, sqltypes.TSVector, sqltypes.TSQuery:
		return false
	}
	return true
}

// Tokens returns the tokens of value v in an inverted index key of
// operator class opclass, each once, in no particular order. NULL has
// none.
func Tokens(opclass string, v sqltypes.Value) [][]byte {
	return tokens(opclass, v, false).out
}

// DescribedTokens is Tokens with each token described in SQL terms, for
// EXPLAIN: key "a", value 1, path a.b = 1, element 'x'.
func DescribedTokens(opclass string, v sqltypes.Value) ([][]byte, []string) {
	tk := tokens(opclass, v, true)
	return tk.out, tk.shown
}

func tokens(opclass string, v sqltypes.Value, describe bool) *tokenizer {
	tk := &tokenizer{seen: map[string]bool{}, describe: describe}
	if v.IsNull() {
		return tk
	}
	switch opclass {
	case OpclassJSONB:
		if j := v.JSONB(); j != nil {
			tk.jsonbOps(j, true)
		}
	case OpclassJSONBPath:
		if j := v.JSONB(); j != nil {
			tk.jsonbPathOps(j, nil, nil)
		}
	case OpclassTrigram:
		for _, t := range builtins.Trigrams(v.S) {
			tk.add(TrigramToken(t), shownTrigram(t))
		}
	case OpclassTSVector:
		if tv := v.TSVector(); tv != nil {
			for _, w := range tv.Words() {
				tk.add(LexemeToken(w), func() string { return "lexeme " + sqltypes.QuoteLiteral(w) })
			}
		}
	case OpclassArray:
		if a := v.Array(); a != nil {
			if len(a.Elems) == 0 {
				tk.add([]byte{tokenEmptyList}, func() string { return "empty array" })
			}
			for _, e := range a.Elems {
				if tok := ElementToken(e); tok != nil {
					tk.add(tok, shownValue("element ", e))
				}
			}
		}
	}
	return tk
}

type tokenizer struct {
	out      [][]byte
	seen     map[string]bool
	describe bool
	shown    []string
}

// add adds a token once; shown describes it (computed only when the
// tokenizer describes: writes never pay for it).
func (tk *tokenizer) add(tok []byte, shown func() string) {
	if !tk.seen[string(tok)] {
		tk.seen[string(tok)] = true
		tk.out = append(tk.out, tok)
		if tk.describe {
			tk.shown = append(tk.shown, shown())
		}
	}
}

func shownValue(prefix string, v sqltypes.Value) func() string {
	return func() string { return prefix + sqltypes.QuoteLiteral(sqltypes.FormatText(v)) }
}

func shownJSON(prefix string, j *sqltypes.JSONValue) func() string {
	return func() string { return prefix + sqltypes.JSONBText(j) }
}

// jsonbOps adds jsonb_ops' tokens of j; elem says j is an array element
// (or the whole document), where a string counts as a key.
func (tk *tokenizer) jsonbOps(j *sqltypes.JSONValue, elem bool) {
	switch j.Kind {
	case sqltypes.JSONObject:
		for i, k := range j.Keys {
			tk.add(KeyToken(k), shownJSON("key ", &sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: k}))
			tk.jsonbOps(&j.Elems[i], false)
		}
	case sqltypes.JSONArray:
		for i := range j.Elems {
			tk.jsonbOps(&j.Elems[i], true)
		}
	case sqltypes.JSONString:
		if elem {
			tk.add(KeyToken(j.Str), shownJSON("key ", j))
			return
		}
		tk.add(appendScalar([]byte{tokenValue}, j), shownJSON("value ", j))
	default:
		tk.add(appendScalar([]byte{tokenValue}, j), shownJSON("value ", j))
	}
}

// jsonbPathOps adds jsonb_path_ops' tokens: one per scalar, a hash of the
// object keys on its path (array positions do not count) and the scalar.
func (tk *tokenizer) jsonbPathOps(j *sqltypes.JSONValue, path []byte, keys []string) {
	switch j.Kind {
	case sqltypes.JSONObject:
		for i, k := range j.Keys {
			tk.jsonbPathOps(&j.Elems[i], zorder.AppendString(path, k, false), append(keys[:len(keys):len(keys)], k))
		}
	case sqltypes.JSONArray:
		for i := range j.Elems {
			tk.jsonbPathOps(&j.Elems[i], path, keys)
		}
	default:
		h := fnv.New64a()
		h.Write(path)
		h.Write(appendScalar(nil, j))
		tk.add(binary.BigEndian.AppendUint64([]byte{tokenPath}, h.Sum64()), func() string {
			quoted := make([]string, len(keys))
			for i, k := range keys {
				quoted[i] = sqltypes.JSONBText(&sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: k})
			}
			return "path " + strings.Join(append(quoted, sqltypes.JSONBText(j)), " → ")
		})
	}
}

// KeyToken is jsonb_ops' token of an object key or string element (what
// jsonb ? key looks up).
func KeyToken(key string) []byte {
	return zorder.AppendString([]byte{tokenKey}, key, false)
}

// appendScalar appends a JSON scalar's encoding: numbers by value (1.0
// and 1 are one token, as jsonb compares them equal).
func appendScalar(b []byte, j *sqltypes.JSONValue) []byte {
	switch j.Kind {
	case sqltypes.JSONString:
		return zorder.AppendString(b, j.Str, false)
	case sqltypes.JSONNumber:
		if j.Num != nil {
			return zorder.AppendDecimal(b, decimalKey(j.Num), false)
		}
	case sqltypes.JSONBool:
		return zorder.AppendBool(b, j.Bool, false)
	}
	return zorder.AppendNull(b, false)
}

// ElementToken is array_ops' token of one element; nil for NULL, which
// equals nothing and so is never looked up.
func ElementToken(e sqltypes.Value) []byte {
	if e.IsNull() {
		return nil
	}
	return AppendKeyValue([]byte{tokenElem}, e, false)
}

// TrigramToken is gin_trgm_ops' token of one trigram.
func TrigramToken(t [3]byte) []byte {
	return []byte{tokenTrigram, t[0], t[1], t[2]}
}

// LexemeToken is a tsvector_ops token: the lexeme, then a 0 byte (no
// lexeme holds one), so a lexeme's entries are a prefix range of their own
// and LexemePrefixToken's range holds every lexeme starting with a prefix.
func LexemeToken(word string) []byte {
	return append(append([]byte{tokenLexeme}, word...), 0)
}

// LexemePrefixToken is the start of the tokens of every lexeme beginning
// with prefix (a tsquery's prefix match, 'sup':*): each of their tokens
// ends at the first 0 byte after it (PrefixTokenEnd).
func LexemePrefixToken(prefix string) []byte {
	return append([]byte{tokenLexeme}, prefix...)
}

// DescribeTrigram describes a trigram for EXPLAIN: its text as show_trgm
// prints it when it is three one-byte characters, else its hash's bytes.
func DescribeTrigram(t [3]byte) string { return shownTrigram(t)() }

func shownTrigram(t [3]byte) func() string {
	return func() string {
		for _, c := range t {
			if c < 0x20 || c >= 0x7f {
				return fmt.Sprintf("trigram 0x%x", t[:])
			}
		}
		return "trigram " + sqltypes.QuoteLiteral(string(t[:]))
	}
}

// EmptyArrayToken is array_ops' token of a row whose array is empty (the
// rows arr <@ anything and arr = '{}' find).
func EmptyArrayToken() []byte { return []byte{tokenEmptyList} }

// InvertedEntryKeys returns the store keys of the entries of a row (its
// entry row erow and encoded primary key pk) in inverted index ix: one per
// token of each key part's value.
func (t *Table) InvertedEntryKeys(ix *Index, erow []sqltypes.Value, pk []byte) []kv.Key {
	part := IndexPartition(ix.ID, ShardOf(pk, ix.Shards))
	var keys []kv.Key
	for i, k := range ix.Columns {
		for _, tok := range Tokens(k.Opclass, t.KeyValue(ix, i, erow)) {
			keys = append(keys, kv.Key{Partition: part, Sort: append(PartToken(i, tok), pk...)})
		}
	}
	return keys
}

// PartToken is token tok of key part i as entries store it: the part
// first, so each part's tokens are a key range of their own.
func PartToken(i int, tok []byte) []byte {
	return append([]byte{byte(i)}, tok...)
}

// InvertedPrimaryKey returns the encoded primary key in the sort key of an
// entry of token tok.
func InvertedPrimaryKey(sort, tok []byte) []byte { return sort[len(tok):] }

// InvertedEntryAttrs returns the attributes of a row's inverted entries:
// its primary key columns (the key value itself is not copied into every
// token's entry).
func (t *Table) InvertedEntryAttrs(row []sqltypes.Value) []kv.Attr {
	attrs := make([]kv.Attr, 0, len(t.PrimaryKey))
	for _, k := range t.PrimaryKey {
		attrs = t.appendAttr(attrs, k.Column, row[k.Column])
	}
	return t.appendExpiry(attrs, row)
}

// EntryKeysOf returns the keys of a row's entries in ix, whatever its
// kind: one (EntryKeyPK) for a btree or Z-order index, one per token for
// an inverted index. erow is the row's entry row; pk its encoded primary
// key (nil: computed from erow).
func (t *Table) EntryKeysOf(ix *Index, erow []sqltypes.Value, pk []byte) []kv.Key {
	if pk == nil {
		pk = t.EncodePK(nil, erow)
	}
	if ix.Inverted() {
		return t.InvertedEntryKeys(ix, erow, pk)
	}
	return []kv.Key{t.EntryKeyPK(ix, erow, pk)}
}

// EntryAttrsOf returns the attributes of row's entries in ix, whatever its
// kind.
func (t *Table) EntryAttrsOf(ix *Index, row []sqltypes.Value) []kv.Attr {
	if ix.Inverted() {
		return t.InvertedEntryAttrs(row)
	}
	return t.EntryAttrs(ix, row)
}

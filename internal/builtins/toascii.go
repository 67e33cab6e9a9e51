package builtins

import (
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// to_ascii: PostgreSQL's to_ascii reads the text's bytes as LATIN1,
// LATIN2, LATIN9 or WIN1250 and maps each byte past 127 to the ASCII
// letter it resembles (in a UTF8 database, which zproxy's is, the bytes
// are UTF-8's, so 'é' becomes "AC"). Without an encoding it converts from
// the database's, UTF8, which PostgreSQL does not support.

// toASCIITables are the replacements of bytes 128 to 255 by encoding,
// recorded from PostgreSQL 15 (bytes UTF-8 text never holds are blanks).
var toASCIITables = map[string]string{
	"LATIN1":  "                                  cL Y  \"Ca  -R     'u .,      ?  AAAAACEEEEIIII NOOOOOxOUUUUYTBaaaaaaaceeeeiiii nooo           ",
	"LATIN2":  "                                 A L LS \"SSTZ-ZZ a,l'ls ,sstz\"zz  AAALCCCEEEEIIDDNNOOOOxRUUUUYTBraaaalccceeeeiiddnnoo           ",
	"LATIN9":  "                                  cL YS sCa  -R     Zu .z   EeY?  AAAAACEEEEIIII NOOOOOxOUUUUYTBaaaaaaaceeeeiiii nooo           ",
	"WIN1250": "  ' \"    %S<STZZ `'\"\".--  s>stzz   L A  \"CS  -RZ  ,l'u .,as L\"lz  AAALCCCEEEEIIDDNNOOOOxRUUUUYTBraaaalccceeeeiiddnnoo           ",
}

// pgEncodingNames are PostgreSQL's encodings by ID (pg_enc).
var pgEncodingNames = [...]string{"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8", "MULE_INTERNAL",
	"LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10", "WIN1256", "WIN1258",
	"WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250",
	"WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U", "SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004"}

// encodingByName is PostgreSQL's encoding of a name: its own names and
// the aliases convert_from reads, in any case and punctuation.
func encodingByName(name string) (string, bool) {
	if e, ok := pgenc.Lookup(name); ok {
		return e.Name, true
	}
	return "", false
}

func toASCII(s, enc string) (sqltypes.Value, error) {
	table, ok := toASCIITables[enc]
	if !ok {
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "encoding conversion from %s to ASCII not supported", enc)
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 128 {
			b[i] = table[c-128]
		}
	}
	return sqltypes.NewText(string(b)), nil
}

func init() {
	text := T(sqltypes.TypeText)
	Register("to_ascii",
		textFn([]Param{text}, func(a []sqltypes.Value) (string, error) {
			_, err := toASCII(a[0].S, "UTF8")
			return "", err
		}),
		Overload{Params: []Param{text, T(sqltypes.TypeName)}, Result: Returns(sqltypes.TypeText), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			enc, ok := encodingByName(a[1].S)
			if !ok {
				return sqltypes.Null, pgerr.New(pgerr.UndefinedObject, "%s is not a valid encoding name", a[1].S)
			}
			return toASCII(a[0].S, enc)
		}},
		Overload{Params: []Param{text, T(sqltypes.TypeInt4)}, Result: Returns(sqltypes.TypeText), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[1].I < 0 || a[1].I >= int64(len(pgEncodingNames)) {
				return sqltypes.Null, pgerr.New(pgerr.UndefinedObject, "%d is not a valid encoding code", a[1].I)
			}
			return toASCII(a[0].S, pgEncodingNames[a[1].I])
		}})
}

// EncodingName is pg_encoding_to_char: the name of PostgreSQL's encoding
// id ("" for none).
func EncodingName(id int64) string {
	if id < 0 || id >= int64(len(pgEncodingNames)) {
		return ""
	}
	return pgEncodingNames[id]
}

// EncodingID is pg_char_to_encoding: the id of the encoding a name or
// alias names (-1 for none).
func EncodingID(name string) int64 {
	n, ok := encodingByName(name)
	if !ok {
		return -1
	}
	for i, e := range pgEncodingNames {
		if e == n {
			return int64(i)
		}
	}
	return -1
}

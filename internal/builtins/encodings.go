package builtins

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// convert_from, convert_to, convert and length(bytea, encoding): text
// between zproxy's server encoding, UTF8, and PostgreSQL's other
// encodings, on golang.org/x/text's charsets. Encoding names are read as
// PostgreSQL reads them: any case, punctuation ignored, with its aliases
// (latin1, iso-8859-1, win1252, windows-1252, unicode ...).

// pgEncoding is one of PostgreSQL's encodings: its name and charset (nil
// for UTF8 and SQL_ASCII, which zproxy's text already is).
type pgEncoding struct {
	name    string
	charset encoding.Encoding
}

var pgEncodings = map[string]pgEncoding{}

func init() {
	add := func(name string, cs encoding.Encoding, aliases ...string) {
		e := pgEncoding{name, cs}
		pgEncodings[cleanEncodingName(name)] = e
		for _, a := range aliases {
			pgEncodings[cleanEncodingName(a)] = e
		}
	}
	add("UTF8", nil, "unicode")
	add("SQL_ASCII", nil)
	add("LATIN1", charmap.ISO8859_1, "ISO8859_1")
	add("LATIN2", charmap.ISO8859_2, "ISO8859_2")
	add("LATIN3", charmap.ISO8859_3, "ISO8859_3")
	add("LATIN4", charmap.ISO8859_4, "ISO8859_4")
	add("LATIN5", charmap.ISO8859_9, "ISO8859_9")
	add("LATIN6", charmap.ISO8859_10, "ISO8859_10")
	add("LATIN7", charmap.ISO8859_13, "ISO8859_13")
	add("LATIN8", charmap.ISO8859_14, "ISO8859_14")
	add("LATIN9", charmap.ISO8859_15, "ISO8859_15")
	add("LATIN10", charmap.ISO8859_16, "ISO8859_16")
	add("ISO_8859_5", charmap.ISO8859_5)
	add("ISO_8859_6", charmap.ISO8859_6)
	add("ISO_8859_7", charmap.ISO8859_7)
	add("ISO_8859_8", charmap.ISO8859_8)
	add("KOI8R", charmap.KOI8R, "KOI8")
	add("KOI8U", charmap.KOI8U)
	add("WIN866", charmap.CodePage866, "ALT")
	add("WIN874", charmap.Windows874)
	for i, cs := range []encoding.Encoding{charmap.Windows1250, charmap.Windows1251, charmap.Windows1252, charmap.Windows1253,
		charmap.Windows1254, charmap.Windows1255, charmap.Windows1256, charmap.Windows1257, charmap.Windows1258} {
		n := 1250 + i
		add(fmt.Sprintf("WIN%d", n), cs, fmt.Sprintf("windows%d", n))
	}
	add("EUC_JP", japanese.EUCJP)
	add("SJIS", japanese.ShiftJIS, "Shift_JIS", "mskanji")
	add("EUC_KR", korean.EUCKR)
	add("GBK", simplifiedchinese.GBK, "CP936")
	add("GB18030", simplifiedchinese.GB18030)
	add("BIG5", traditionalchinese.Big5)
}

// cleanEncodingName is PostgreSQL's clean_encoding_name: lower case,
// letters and digits only.
func cleanEncodingName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func lookupEncoding(name, role string) (pgEncoding, error) {
	if e, ok := pgEncodings[cleanEncodingName(name)]; ok {
		return e, nil
	}
	return pgEncoding{}, pgerr.New(pgerr.InvalidParameterValue, "invalid %sencoding name \"%s\"", role, name)
}

// byteList prints bytes as PostgreSQL's encoding errors do: 0xe2 0x82.
func byteList(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("0x%02x", c)
	}
	return strings.Join(parts, " ")
}

// invalidSequence is 22021 for the character starting at b[i] (as many
// bytes as its lead byte announces, as far as b goes).
func invalidSequence(enc string, b []byte, i int) error {
	n := 1
	if enc == "UTF8" {
		switch c := b[i]; {
		case c&0xe0 == 0xc0:
			n = 2
		case c&0xf0 == 0xe0:
			n = 3
		case c&0xf8 == 0xf0:
			n = 4
		}
	}
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"%s\": %s", enc, byteList(b[i:min(i+n, len(b))]))
}

func noEquivalent(b []byte, from, to string) error {
	return pgerr.New(pgerr.UntranslatableCharacter, "character with byte sequence %s in encoding \"%s\" has no equivalent in encoding \"%s\"", byteList(b), from, to)
}

// checkUTF8 is PostgreSQL's verification of server-encoding text: valid
// UTF-8 without NUL.
func checkUTF8(b []byte) error {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 || r == 0 {
			return invalidSequence("UTF8", b, i)
		}
		i += n
	}
	return nil
}

// decodeFrom turns bytes in encoding e into UTF-8.
func decodeFrom(e pgEncoding, b []byte) ([]byte, error) {
	if e.charset == nil {
		return b, checkUTF8(b)
	}
	for i, c := range b {
		if c == 0 {
			return nil, invalidSequence(e.name, b, i)
		}
	}
	if cm, ok := e.charset.(*charmap.Charmap); ok {
		// Single-byte: a byte the charset leaves undefined has no
		// equivalent.
		out := make([]byte, 0, len(b))
		for _, c := range b {
			r := cm.DecodeByte(c)
			if r == utf8.RuneError {
				return nil, noEquivalent([]byte{c}, e.name, "UTF8")
			}
			out = utf8.AppendRune(out, r)
		}
		return out, nil
	}
	out, err := e.charset.NewDecoder().Bytes(b)
	if err != nil || strings.ContainsRune(string(out), utf8.RuneError) {
		return nil, pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"%s\"", e.name)
	}
	return out, nil
}

// encodeTo turns UTF-8 into encoding e.
func encodeTo(e pgEncoding, s []byte) ([]byte, error) {
	if e.charset == nil {
		return s, nil
	}
	enc := e.charset.NewEncoder()
	var out []byte
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRune(s[i:])
		b, err := enc.Bytes(s[i : i+n])
		if err != nil {
			return nil, noEquivalent(s[i:i+n], "UTF8", e.name)
		}
		out = append(out, b...)
		i += n
	}
	return out, nil
}

func init() {
	bytea, text, name := T(sqltypes.TypeBytea), T(sqltypes.TypeText), T(sqltypes.Type{ID: sqltypes.Name})
	Register("convert_from", Overload{Params: []Param{bytea, name}, Result: Returns(sqltypes.TypeText), Volatility: Stable,
		Doc: "convert string with specified source encoding name",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := lookupEncoding(a[1].S, "source ")
			if err != nil {
				return sqltypes.Null, err
			}
			out, err := decodeFrom(e, []byte(a[0].S))
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewText(string(out)), nil
		}})
	Register("convert_to", Overload{Params: []Param{text, name}, Result: Returns(sqltypes.TypeBytea), Volatility: Stable,
		Doc: "convert string with specified destination encoding name",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := lookupEncoding(a[1].S, "destination ")
			if err != nil {
				return sqltypes.Null, err
			}
			out, err := encodeTo(e, []byte(a[0].S))
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewBytes(out), nil
		}})
	Register("convert", Overload{Params: []Param{bytea, name, name}, Result: Returns(sqltypes.TypeBytea), Volatility: Stable,
		Doc: "convert string with specified encoding names",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			from, err := lookupEncoding(a[1].S, "source ")
			if err != nil {
				return sqltypes.Null, err
			}
			to, err := lookupEncoding(a[2].S, "destination ")
			if err != nil {
				return sqltypes.Null, err
			}
			mid, err := decodeFrom(from, []byte(a[0].S))
			if err != nil {
				return sqltypes.Null, err
			}
			out, err := encodeTo(to, mid)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewBytes(out), nil
		}})
	Register("length", Overload{Params: []Param{bytea, name}, Result: Returns(sqltypes.TypeInt4), Volatility: Stable,
		Doc: "length of string in specified encoding",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := lookupEncoding(a[1].S, "")
			if err != nil {
				return sqltypes.Null, err
			}
			out, err := decodeFrom(e, []byte(a[0].S))
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewInt(int64(utf8.RuneCount(out))), nil
		}})
}

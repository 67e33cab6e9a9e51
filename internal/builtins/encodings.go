package builtins

import (
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// convert_from, convert_to, convert and length(bytea, encoding): text
// between zproxy's server encoding, UTF8, and PostgreSQL's other
// encodings, by the same conversions the protocol uses for a client's
// encoding (internal/pgenc, checked against PostgreSQL's maps), with
// PostgreSQL's errors: 22021 for bytes that are no character of their
// encoding, 22P05 for a character the other encoding lacks. Encoding
// names are read as PostgreSQL reads them (any case, punctuation ignored,
// its aliases).

// lookupEncoding is the encoding named name; role is "source ",
// "destination " or "" for the error naming it.
func lookupEncoding(name, role string) (*pgenc.Encoding, error) {
	e, ok := pgenc.Lookup(name)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid %sencoding name \"%s\"", role, name)
	}
	return e, nil
}

// unconvertible checks text of an encoding zproxy does not convert
// (EUC_JP, EUC_CN, BIG5, ...: golang.org/x/text's tables disagree with
// PostgreSQL's on common characters): ASCII reads the same in every
// encoding here, anything else is 0A000.
func unconvertible(e *pgenc.Encoding, b []byte) error {
	for _, c := range b {
		if c >= 0x80 || c == 0 {
			return pgerr.New(pgerr.FeatureNotSupported, "conversion between %s and UTF8 is not supported", e.Name).
				WithDetail("zproxy's tables for %s would not give PostgreSQL's characters; text that is all ASCII converts.", e.Name)
		}
	}
	return nil
}

// charCount is pgenc's CharCount for any encoding.
func charCount(e *pgenc.Encoding, b []byte) (int, error) {
	if !e.Convertible() {
		return len(b), unconvertible(e, b)
	}
	return e.CharCount(b)
}

// decodeFrom turns bytes in encoding e into UTF-8, as pg_convert does to
// the server encoding: checked as text of e, then converted. The check
// comes first, over the whole text, because PostgreSQL's does: a NUL
// after a character the server lacks is 22021, not 22P05.
func decodeFrom(e *pgenc.Encoding, b []byte) ([]byte, error) {
	if _, err := charCount(e, b); err != nil || !e.Convertible() {
		return b, err
	}
	return e.ToServer(nil, b)
}

// convertBetween is pg_convert from one encoding to another: the text is
// checked as from's, then converted, through UTF8, when PostgreSQL has a
// conversion for the pair (between UTF8 and each other encoding, and the
// direct ones of directConversions); 42883 otherwise, as PostgreSQL says.
func convertBetween(b []byte, from, to *pgenc.Encoding) ([]byte, error) {
	if _, err := charCount(from, b); err != nil {
		return nil, err
	}
	switch {
	case from == to, to == pgenc.SQLASCII:
		return b, nil
	case from == pgenc.SQLASCII:
		// Nothing to convert, but the bytes must be text of to.
		if _, err := charCount(to, b); err != nil {
			return nil, err
		}
		return b, nil
	case from != pgenc.UTF8 && to != pgenc.UTF8 && !directConversions[[2]string{from.Name, to.Name}]:
		return nil, pgerr.New(pgerr.UndefinedFunction, "default conversion function for encoding \"%s\" to \"%s\" does not exist", from.Name, to.Name)
	}
	mid := b // checked above: all ASCII when from is not converted
	if from.Convertible() {
		var err error
		if mid, err = from.ToServer(nil, b); err != nil {
			return nil, err
		}
	}
	return encodeTo(to, mid)
}

// directConversions are PostgreSQL 15's default conversions between two
// encodings neither of which is UTF8 (pg_conversion), among those zproxy
// converts: the Cyrillic ones with each other, LATIN2 and WIN1250.
var directConversions = func() map[[2]string]bool {
	m := map[[2]string]bool{{"LATIN2", "WIN1250"}: true, {"WIN1250", "LATIN2"}: true}
	cyrillic := []string{"ISO_8859_5", "KOI8R", "WIN1251", "WIN866"}
	for _, a := range cyrillic {
		for _, b := range cyrillic {
			if a != b {
				m[[2]string{a, b}] = true
			}
		}
	}
	return m
}()

// encodeTo turns UTF-8 into encoding e.
func encodeTo(e *pgenc.Encoding, s []byte) ([]byte, error) {
	switch {
	case e.Passthrough():
		return s, nil
	case !e.Convertible():
		return s, unconvertible(e, s)
	}
	return e.ToClient(nil, s)
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
			out, err := convertBetween([]byte(a[0].S), from, to)
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
			// pg_verify_mbstr_len: the characters counted by the
			// encoding's rules, nothing converted.
			n, err := charCount(e, []byte(a[0].S))
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewInt(int64(n)), nil
		}})
}

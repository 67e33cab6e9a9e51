package wire

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Binary forms of the catalogs' system types, as PostgreSQL 15 sends them:
// oid and the reg* types are oidsend's unsigned 4-byte integer, name is
// its bytes, "char" its one byte, int2vector and oidvector array_send's
// one-dimensional array with lower bound 0.

func decodeSystem(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	switch {
	case t.ID == sqltypes.ACLItem:
		// aclitem has no receive function (pg_type.typreceive is -).
		return sqltypes.Null, pgerr.New(pgerr.UndefinedFunction, "no binary input function available for type aclitem")
	case t.ID == sqltypes.Record:
		return decodeRecord(t, src)
	case t.IsOIDLike():
		if len(src) != 4 {
			return sqltypes.Null, errBadBinary(t, "expected 4 bytes, got %d", len(src))
		}
		o := binary.BigEndian.Uint32(src)
		if t.ID == sqltypes.Oid {
			return sqltypes.NewOID(o), nil
		}
		if c, ok := sqltypes.TSConfigByOID(o); ok && t.ID == sqltypes.RegConfig {
			return sqltypes.NewReg(o, c.Name), nil // the configurations are fixed: no catalog needed
		}
		if d, ok := sqltypes.TSDictionaryByOID(o); ok && t.ID == sqltypes.RegDictionary {
			return sqltypes.NewReg(o, d.Name), nil
		}
		if c, ok := sqltypes.CollationByOID(o); ok && t.ID == sqltypes.RegCollation {
			return sqltypes.NewReg(o, sqltypes.QuoteIdent(c.Name)), nil
		}
		return sqltypes.NewReg(o, ""), nil
	case t.ID == sqltypes.Char:
		// charrecv reads one byte, any byte (pq_getmsgbyte: 08P01 when
		// there is none), and nothing may follow it. The value holds
		// charout's text of it: a high byte is not UTF-8 on its own.
		if len(src) == 0 {
			return sqltypes.Null, pgerr.New(pgerr.ProtocolViolation, "no data left in message")
		}
		if len(src) != 1 {
			return sqltypes.Null, errBadBinary(t, "%d bytes left over", len(src)-1)
		}
		return sqltypes.NewText(sqltypes.CharText(src[0])), nil
	case t.ID == sqltypes.Void:
		// void_recv reads nothing, and PostgreSQL refuses a value with
		// bytes left over.
		if len(src) != 0 {
			return sqltypes.Null, errBadBinary(t, "expected 0 bytes, got %d", len(src))
		}
		return sqltypes.NewText(""), nil
	case t.ID == sqltypes.Name:
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		if len(src) >= sqltypes.NameDataLen {
			return sqltypes.Null, pgerr.New(pgerr.NameTooLong, "identifier too long").
				WithDetail("Identifier must be less than %d characters.", sqltypes.NameDataLen)
		}
		return sqltypes.NewText(string(src)), nil
	case t.ID == sqltypes.Int2Vector || t.ID == sqltypes.OidVector:
		v, err := decodeArray(sqltypes.ArrayOf(sqltypes.VectorElem(t)), src)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.Cast(v, t)
	}
	return sqltypes.Null, errBadBinary(t, "no binary form")
}

func appendSystem(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	switch {
	case t.ID == sqltypes.ACLItem:
		// aclitem has no send function (pg_type.typsend is -).
		return buf, pgerr.New(pgerr.UndefinedFunction, "no binary output function available for type aclitem")
	case t.IsOIDLike():
		return binary.BigEndian.AppendUint32(buf, uint32(v.I)), nil
	case t.ID == sqltypes.Name:
		return append(buf, v.S...), nil
	case t.ID == sqltypes.Char:
		// charsend: the one byte, 0 for the empty value, a high byte raw
		// rather than as the octal escape its text shows.
		return append(buf, sqltypes.CharByte(v.S)), nil
	case t.ID == sqltypes.Record:
		return appendRecord(buf, t, v)
	case t.ID == sqltypes.Void:
		return buf, nil // void_send sends nothing
	default: // int2vector, oidvector
		return appendArray(buf, sqltypes.ArrayOf(sqltypes.VectorElem(t)), v)
	}
}

package builtins

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// encode and decode convert between bytea and text in PostgreSQL's three
// formats: hex, base64 (with a newline after every 76 characters, as
// PostgreSQL writes it) and escape (octal escapes for NUL and high bytes).

func unknownEncoding(name string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "unrecognized encoding: \"%s\"", name)
}

func encode(b, format string) (string, error) {
	switch strings.ToLower(format) {
	case "hex":
		const digits = "0123456789abcdef"
		out := make([]byte, 2*len(b))
		for i := 0; i < len(b); i++ {
			out[2*i], out[2*i+1] = digits[b[i]>>4], digits[b[i]&15]
		}
		return string(out), nil
	case "base64":
		enc := base64.StdEncoding.EncodeToString([]byte(b))
		var sb strings.Builder
		for len(enc) >= 76 {
			sb.WriteString(enc[:76])
			sb.WriteByte('\n')
			enc = enc[76:]
		}
		sb.WriteString(enc)
		return sb.String(), nil
	case "escape":
		var sb strings.Builder
		for i := 0; i < len(b); i++ {
			switch c := b[i]; {
			case c == 0 || c >= 0x80:
				sb.WriteByte('\\')
				sb.WriteByte('0' + c>>6)
				sb.WriteByte('0' + c>>3&7)
				sb.WriteByte('0' + c&7)
			case c == '\\':
				sb.WriteString(`\\`)
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	}
	return "", unknownEncoding(format)
}

func isEncodingSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func decode(s, format string) ([]byte, error) {
	switch strings.ToLower(format) {
	case "hex":
		return sqltypes.DecodeHex(s)
	case "base64":
		return decodeBase64(s)
	case "escape":
		return decodeEscape(s)
	}
	return nil, unknownEncoding(format)
}

// decodeBase64 reads base64 as PostgreSQL does: white space anywhere, and
// once padding has been seen, later groups give no more bytes than the
// first padded one did.
func decodeBase64(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)*3/4)
	var buf uint32
	pos, end := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isEncodingSpace(c) {
			continue
		}
		var b uint32
		if c == '=' {
			if end == 0 {
				switch pos {
				case 2:
					end = 1
				case 3:
					end = 2
				default:
					return nil, pgerr.New(pgerr.InvalidParameterValue, "unexpected \"=\" while decoding base64 sequence")
				}
			}
		} else {
			k := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", c)
			if k < 0 {
				r, _ := utf8.DecodeRuneInString(s[i:])
				return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid symbol \"%c\" found while decoding base64 sequence", r)
			}
			b = uint32(k)
		}
		buf = buf<<6 | b
		if pos++; pos == 4 {
			out = append(out, byte(buf>>16))
			if end == 0 || end > 1 {
				out = append(out, byte(buf>>8))
			}
			if end == 0 || end > 2 {
				out = append(out, byte(buf))
			}
			buf, pos = 0, 0
		}
	}
	if pos != 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid base64 end sequence").
			WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
	}
	return out, nil
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func decodeEscape(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] != '\\':
			out = append(out, s[i])
		case i+3 < len(s) && s[i+1] >= '0' && s[i+1] <= '3' && isOctal(s[i+2]) && isOctal(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i++
		default:
			return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bytea")
		}
	}
	return out, nil
}

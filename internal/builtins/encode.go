package builtins

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// encode and decode convert between bytea and text in PostgreSQL's three
// formats: hex, base64 (with a newline after every 76 characters, as
// PostgreSQL writes it) and escape (octal escapes for NUL and high bytes).

func unknownEncoding(name string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "unrecognized encoding: \"%s\"", name)
}

// encode sizes its result first, as PostgreSQL's binary_encode does
// (54000 past the field limit, before anything is built), then builds it
// in one buffer charged as a large value.
func encode(b, format string) (string, error) {
	format = strings.ToLower(format)
	var size int64
	switch format {
	case "hex":
		size = 2 * int64(len(b))
	case "base64":
		// pg_base64_enc_len: the groups, and a newline a line of 76.
		size = (int64(len(b))+2)/3*4 + int64(len(b))/(76*3/4)
	case "escape":
		for i := 0; i < len(b); i++ {
			switch c := b[i]; {
			case c == 0 || c >= 0x80:
				size += 4
			case c == '\\':
				size += 2
			default:
				size++
			}
		}
	default:
		return "", unknownEncoding(format)
	}
	if size > sqltypes.MaxAllocSize-4 {
		return "", pgerr.New(pgerr.ProgramLimitExceeded, "result of encoding conversion is too large")
	}
	out, err := sqltypes.MakeBytes(size, "encode's result")
	if err != nil {
		return "", err
	}
	switch format {
	case "hex":
		const digits = "0123456789abcdef"
		for i := 0; i < len(b); i++ {
			out = append(out, digits[b[i]>>4], digits[b[i]&15])
		}
	case "base64":
		// Line by line: 57 bytes make a line of 76 characters, and
		// every full line ends in a newline, the last one too.
		const line = 76 * 3 / 4
		src := unsafe.Slice(unsafe.StringData(b), len(b)) // read only
		for len(src) > 0 {
			n := min(len(src), line)
			out = base64.StdEncoding.AppendEncode(out, src[:n])
			src = src[n:]
			if n == line {
				out = append(out, '\n')
			}
		}
	case "escape":
		for i := 0; i < len(b); i++ {
			switch c := b[i]; {
			case c == 0 || c >= 0x80:
				out = append(out, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
			case c == '\\':
				out = append(out, '\\', '\\')
			default:
				out = append(out, c)
			}
		}
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), nil
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

package wire

import (
	"github.com/zproxy/zproxy/internal/pgerr"
)

// checkText checks that client strings (a query, a statement or portal name)
// are valid UTF-8 without NUL bytes, the server encoding's rule; zproxy
// would otherwise store bytes no PostgreSQL client can read back.
func checkText(ss ...string) error {
	for _, s := range ss {
		if i := pgerr.InvalidUTF8(s); i >= 0 {
			return pgerr.InvalidByteSequence(s[i:])
		}
	}
	return nil
}

// checkTextBytes is checkText for a parameter value.
func checkTextBytes(b []byte) error {
	if i := pgerr.InvalidUTF8(b); i >= 0 {
		return pgerr.InvalidByteSequence(string(b[i:]))
	}
	return nil
}

package ir

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// concatLimit checks the || of text or bytea x and y, which PostgreSQL
// allocates whole (textcat, byteacat: both lengths and a header).
func ConcatLimit(x, y string) error {
	return sqltypes.AllocLimit(int64(len(x)) + int64(len(y)) + 4)
}

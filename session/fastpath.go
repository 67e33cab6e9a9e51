package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/wire"
)

var _ wire.FunctionCaller = (*Session)(nil)

// FunctionCallQuery implements wire.FunctionCaller: the function-call
// (fast-path) protocol, which libpq's large-object functions use, calls a
// built-in function by its pg_proc OID; it runs as the query calling it.
func (s *Session) FunctionCallQuery(ctx context.Context, oid uint32) (string, []uint32, error) {
	name, args, ok := pgcatalog.BuiltinFunction(oid)
	if !ok {
		return "", nil, pgerr.New(pgerr.UndefinedFunction, "function with OID %d does not exist", oid)
	}
	params := make([]string, len(args))
	for i := range args {
		params[i] = fmt.Sprintf("$%d", i+1)
	}
	return fmt.Sprintf("SELECT pg_catalog.%s(%s)", name, strings.Join(params, ", ")), args, nil
}

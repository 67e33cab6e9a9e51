package pgcatalog

import (
	"strings"

	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// oidvectortypes(oidvector) prints a function's argument types as
// format_type does, comma-separated (pg_proc.proargtypes read by tools
// listing functions).
func init() {
	Register("oidvectortypes", Overload{Params: []Param{T(sqltypes.Type{ID: sqltypes.OidVector})}, Result: Returns(sqltypes.TypeText), Volatility: Stable,
		Doc: "print type names of oidvector field",
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			env := envOf(ctx)
			if env == nil {
				env = NewEnv(nil, nil)
			}
			arr := a[0].Array()
			names := make([]string, 0, len(arr.Elems))
			for _, e := range arr.Elems {
				names = append(names, env.formatType(uint32(e.I), -1, false))
			}
			return sqltypes.NewText(strings.Join(names, ", ")), nil
		}})
}

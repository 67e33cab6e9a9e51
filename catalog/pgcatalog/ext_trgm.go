package pgcatalog

import (
	"strconv"

	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_trgm's set_limit is here rather than with its other functions
// (internal/builtins/ext_trgm.go) because it changes a session setting,
// which only the catalog's Env reaches (as set_config does).
func init() {
	Register("set_limit", Overload{Params: []Param{T(sqltypes.TypeFloat4)}, Result: Returns(sqltypes.TypeFloat4), Volatility: Volatile,
		Doc: "sets pg_trgm.similarity_threshold and returns it (pg_trgm)",
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil || e.Sess == nil {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "set_limit needs a session")
			}
			// As pg_trgm: the real is printed as float4 prints it, and the
			// setting reads that text, as SET would.
			text := string(sqltypes.AppendFloat(nil, a[0].F, 32))
			if _, err := setSetting(ctx, e, TrgmSimilarityThreshold, text, false); err != nil {
				return sqltypes.Null, err
			}
			// The setting holds the double that text reads as (SHOW
			// prints it to six digits); set_limit returns it as a real.
			f, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.NewFloat(float64(float32(f))), nil
		}})
}

package pgcatalog

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// InvertedPacker is a Session that can pack a gin index's posting lists:
// fold the postings and removals writes added since the last packing into
// its blocks (executor.PackInverted), returning how many entries it
// folded.
type InvertedPacker interface {
	PackInverted(ctx context.Context, t *catalog.Table, ix *catalog.Index) (int64, error)
}

// registerGinPending registers gin_clean_pending_list(regclass), which
// in PostgreSQL moves a GIN index's pending list into its main structure
// and returns how many pending-list pages it removed; here it packs the
// index's lists and returns how many entries it folded in (README,
// "Inverted (gin) indexes"). Its checks and errors are ginfast.c's: an
// index, a GIN one, owned by a role the user is a member of. Like
// PostgreSQL's, it runs in a read-only transaction too, and a ROLLBACK
// does not undo it: the lists are the same before and after.
func registerGinPending() {
	Register("gin_clean_pending_list", fn("", []Param{T(sqltypes.TypeRegClass)}, sqltypes.TypeInt8, Volatile,
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			e, err := needEnv(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			o := e.objects().byOID[uint32(a[0].I)]
			switch {
			case o == nil:
				return sqltypes.Null, pgerr.Raised("could not open relation with OID %d", uint32(a[0].I))
			case o.kind != 'i':
				return sqltypes.Null, pgerr.New(pgerr.WrongObjectType, "%q is not an index", o.name)
			case o.index == nil || !o.index.Inverted():
				return sqltypes.Null, pgerr.New(pgerr.WrongObjectType, "%q is not a GIN index", o.name)
			case !e.Snap.IsMemberOf(e.userIn(ctx), o.owner):
				return sqltypes.Null, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of index %s", o.name)
			}
			p, ok := e.Sess.(InvertedPacker)
			if !ok {
				return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "gin_clean_pending_list needs a session's store, which this statement has none of")
			}
			if o.index.State != catalog.StatePublic {
				return intV(0), nil // its build packs it
			}
			n, err := p.PackInverted(e.Ctx, o.table, o.index)
			if err != nil {
				return sqltypes.Null, err
			}
			return intV(n), nil
		}))
}

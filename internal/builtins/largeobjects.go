package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// LargeObjects is the session's access to large objects: descriptors are
// the transaction's, the objects are stored (session/largeobjects.go).
// Each method checks what PostgreSQL's be-fsstubs.c checks, with its
// SQLSTATEs.
type LargeObjects interface {
	// Create makes an empty object; oid 0 picks a free OID.
	Create(oid uint32) (uint32, error)
	Open(oid uint32, mode int32) (int32, error)
	Close(fd int32) error
	Read(fd int32, n int32) ([]byte, error)
	Write(fd int32, data []byte) (int32, error)
	// Seek moves the descriptor (whence 0 SEEK_SET, 1 SEEK_CUR, 2
	// SEEK_END) and returns the new offset; Tell returns it.
	Seek(fd int32, off int64, whence int32) (int64, error)
	Tell(fd int32) (int64, error)
	Truncate(fd int32, size int64) error
	Unlink(oid uint32) error
	// Get reads n bytes (n < 0: to the end) from off; Put writes at off.
	Get(oid uint32, off int64, n int64) ([]byte, error)
	Put(oid uint32, off int64, data []byte) error
}

// The large-object functions of PostgreSQL's be-fsstubs.c. All are
// volatile: they read or change stored objects and the transaction's
// descriptors.
func init() {
	oid := T(sqltypes.TypeOid)
	los := func(ctx *Context) (LargeObjects, error) {
		if ctx == nil || ctx.LargeObjects == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "large-object functions are not available here")
		}
		return ctx.LargeObjects, nil
	}
	fn := func(params []Param, result sqltypes.Type, f func(LargeObjects, []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Volatile, Stores: true,
			Eval: func(ctx *Context, args []sqltypes.Value) (sqltypes.Value, error) {
				l, err := los(ctx)
				if err != nil {
					return sqltypes.Null, err
				}
				return f(l, args)
			}}
	}
	fd := func(v sqltypes.Value) int32 { return int32(v.I) }
	oidOf := func(v sqltypes.Value) uint32 { return uint32(v.I) }
	create := func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		var want uint32
		if len(a) > 0 && a[0].K == sqltypes.KindInt {
			want = oidOf(a[0])
		}
		o, err := l.Create(want)
		return sqltypes.NewOID(o), err
	}
	Register("lo_create", fn([]Param{oid}, sqltypes.TypeOid, create))
	// lo_creat's mode is ignored, as PostgreSQL ignores it since 8.1.
	Register("lo_creat", fn([]Param{int4}, sqltypes.TypeOid, func(l LargeObjects, _ []sqltypes.Value) (sqltypes.Value, error) {
		return create(l, nil)
	}))
	Register("lo_open", fn([]Param{oid, int4}, sqltypes.TypeInt4, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		d, err := l.Open(oidOf(a[0]), int32(a[1].I))
		return sqltypes.NewInt(int64(d)), err
	}))
	Register("lo_close", fn([]Param{int4}, sqltypes.TypeInt4, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(0), l.Close(fd(a[0]))
	}))
	Register("loread", fn([]Param{int4, int4}, sqltypes.TypeBytea, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		b, err := l.Read(fd(a[0]), int32(a[1].I))
		return sqltypes.NewBytes(b), err
	}))
	Register("lowrite", fn([]Param{int4, bytea}, sqltypes.TypeInt4, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		n, err := l.Write(fd(a[0]), []byte(a[1].S))
		return sqltypes.NewInt(int64(n)), err
	}))
	// The 32-bit forms refuse a result past int4, as PostgreSQL does.
	seek := func(wide bool) func(LargeObjects, []sqltypes.Value) (sqltypes.Value, error) {
		return func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
			off, err := l.Seek(fd(a[0]), a[1].I, int32(a[2].I))
			if err == nil && !wide && off != int64(int32(off)) {
				err = pgerr.New(pgerr.NumericValueOutOfRange, "lo_lseek result out of range for large-object descriptor %d", fd(a[0]))
			}
			return sqltypes.NewInt(off), err
		}
	}
	Register("lo_lseek", fn([]Param{int4, int4, int4}, sqltypes.TypeInt4, seek(false)))
	Register("lo_lseek64", fn([]Param{int4, int8, int4}, sqltypes.TypeInt8, seek(true)))
	tell := func(wide bool) func(LargeObjects, []sqltypes.Value) (sqltypes.Value, error) {
		return func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
			off, err := l.Tell(fd(a[0]))
			if err == nil && !wide && off != int64(int32(off)) {
				err = pgerr.New(pgerr.NumericValueOutOfRange, "lo_tell result out of range for large-object descriptor %d", fd(a[0]))
			}
			return sqltypes.NewInt(off), err
		}
	}
	Register("lo_tell", fn([]Param{int4}, sqltypes.TypeInt4, tell(false)))
	Register("lo_tell64", fn([]Param{int4}, sqltypes.TypeInt8, tell(true)))
	truncate := func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(0), l.Truncate(fd(a[0]), a[1].I)
	}
	Register("lo_truncate", fn([]Param{int4, int4}, sqltypes.TypeInt4, truncate))
	Register("lo_truncate64", fn([]Param{int4, int8}, sqltypes.TypeInt4, truncate))
	Register("lo_unlink", fn([]Param{oid}, sqltypes.TypeInt4, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewInt(1), l.Unlink(oidOf(a[0]))
	}))
	Register("lo_get",
		fn([]Param{oid}, sqltypes.TypeBytea, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
			b, err := l.Get(oidOf(a[0]), 0, -1)
			return sqltypes.NewBytes(b), err
		}),
		fn([]Param{oid, int8, int4}, sqltypes.TypeBytea, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
			if a[2].I < 0 {
				return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "requested length cannot be negative")
			}
			b, err := l.Get(oidOf(a[0]), a[1].I, a[2].I)
			return sqltypes.NewBytes(b), err
		}))
	Register("lo_put", fn([]Param{oid, int8, bytea}, sqltypes.TypeVoid, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.Null, l.Put(oidOf(a[0]), a[1].I, []byte(a[2].S))
	}))
	Register("lo_from_bytea", fn([]Param{oid, bytea}, sqltypes.TypeOid, func(l LargeObjects, a []sqltypes.Value) (sqltypes.Value, error) {
		o, err := l.Create(oidOf(a[0]))
		if err == nil {
			err = l.Put(o, 0, []byte(a[1].S))
		}
		return sqltypes.NewOID(o), err
	}))
}

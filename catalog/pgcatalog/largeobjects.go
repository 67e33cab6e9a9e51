package pgcatalog

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// LargeObjectReader is a Session that reads the stored large objects
// (through the statement's transaction when there is one):
// pg_largeobject_metadata and pg_largeobject list them. A session without
// it has none.
type LargeObjectReader interface {
	LargeObjects(ctx context.Context) ([]catalog.LargeObject, error)
	LargeObjectPages(ctx context.Context, oid uint32) ([]catalog.LargeObjectPage, error)
}

// largeObjects lists the session's large objects (none without a reader).
func (e *Env) largeObjects() (LargeObjectReader, []catalog.LargeObject, error) {
	l, ok := e.Sess.(LargeObjectReader)
	if !ok {
		return nil, nil, nil
	}
	los, err := l.LargeObjects(e.Ctx)
	return l, los, err
}

func init() {
	generateChecked("pg_catalog.pg_largeobject_metadata", func(e *Env) ([]row, error) {
		_, los, err := e.largeObjects()
		if err != nil {
			return nil, err
		}
		out := make([]row, 0, len(los))
		for _, lo := range los {
			r := &pgLargeobjectMetadataRow{Oid: oidV(lo.OID), Lomowner: oidV(RoleOID(lo.Owner))}
			if acl := lo.ACL(); acl != nil {
				r.Lomacl = aclArray(acl)
			}
			out = append(out, r)
		}
		return out, nil
	})
	generateChecked("pg_catalog.pg_largeobject", func(e *Env) ([]row, error) {
		// The objects' bytes: only superusers read the catalog itself
		// (system_acl.go; others go through the functions, which check
		// the objects' privileges).
		l, los, err := e.largeObjects()
		if err != nil {
			return nil, err
		}
		var out []row
		for _, lo := range los {
			pages, err := l.LargeObjectPages(e.Ctx, lo.OID)
			if err != nil {
				return nil, err
			}
			for _, p := range pages {
				out = append(out, &pgLargeobjectRow{Loid: oidV(lo.OID), Pageno: sqltypes.NewInt(int64(p.PageNo)), Data: sqltypes.NewBytes(p.Data)})
			}
		}
		return out, nil
	})
}
